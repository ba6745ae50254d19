/**
 * @module storage/entities/d1-entity-owner
 * The owner predicate every raw-SQL statement over the entity tables carries, for each table alias it
 * reads: account, namespace and user bound as ?1, ?2, ?3. An entity's id derives from its name alone,
 * so two owners naming "Ana" share ids and only this predicate keeps their rows apart.
 */
export const ownerOf = (alias: string) =>
  `${alias}.account_id = ?1 AND ${alias}.namespace = ?2 AND ${alias}.user_id = ?3`;
