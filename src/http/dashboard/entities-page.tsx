/** @jsxImportSource hono/jsx */
/**
 * @module http/dashboard/entities-page
 * The people, places and things the signed-in person's memories name: a page of them (kind, other
 * names, how many memories name them, their relations) and one entity's own page (its relations and
 * the memories that name it, each linked to its memory page). Names are the person's own text (or an
 * imported file's): Hono's JSX escapes them, and links carry them percent-encoded.
 */
import type { Entity, EntityRelationView } from "../../memory/entities/entity-types";
import { USER } from "../../memory/entities/entity-types";
import type { Memory } from "../../memory/types";
import type { DashMessages } from "./dashboard-messages";
import { Layout, type PageFrame } from "./layout";
import { MemoryItem } from "./memories-page";

/** An entity's page (its name or alias, percent-encoded: a "/" in a name stays one segment). */
export function entityHref(name: string): string {
  return `/dashboard/entities/${encodeURIComponent(name)}`;
}

/** "sister_of" reads as "sister of". */

function Side(props: { id: string; name: string; self: string; m: DashMessages }) {
  if (props.id === USER) return <strong>{props.m.entities.you}</strong>;
  if (props.id === props.self) return <span>{props.name}</span>;
  return <a href={entityHref(props.name)}>{props.name}</a>;
}

/** One relation as a line: "Ana · sister of · you", the other side linked. */
function Relation(props: { r: EntityRelationView; self: string; m: DashMessages }) {
  const { r, self, m } = props;
  return (
    <li>
      <Side id={r.subjectId} name={r.subjectName} self={self} m={m} />
      {" · "}
      <span class="predicate">{m.entities.predicate(r.predicate)}</span>
      {" · "}
      <Side id={r.objectId} name={r.objectName} self={self} m={m} />
    </li>
  );
}

export function Relations(props: { relations: EntityRelationView[]; self: string; m: DashMessages }) {
  if (props.relations.length === 0) return null;
  return (
    <ul class="relations">
      {props.relations.map((r) => (
        <Relation r={r} self={props.self} m={props.m} />
      ))}
    </ul>
  );
}

function EntityRow(props: { e: Entity; relations: EntityRelationView[]; frame: PageFrame }) {
  const { e, relations } = props;
  const { m, fmt } = props.frame;
  return (
    <li class="entity">
      <p>
        <a href={entityHref(e.name)} class="entity-name">
          {e.name}
        </a>{" "}
        <span class={`badge kind-${e.kind}`}>{m.entities.kinds[e.kind] ?? e.kind}</span>{" "}
        <span class="muted nowrap">{m.entities.count(e.memoryCount, fmt.number(e.memoryCount))}</span>
      </p>
      {e.aliases.length > 0 ? (
        <p class="muted">
          {m.entities.aliases}: {e.aliases.join(", ")}
        </p>
      ) : null}
      <Relations relations={relations} self={e.id} m={m} />
    </li>
  );
}

export function EntitiesPage(props: {
  frame: PageFrame;
  entities: Entity[];
  relations: EntityRelationView[];
  cursor: string;
  nextCursor: string | null;
}) {
  const { m } = props.frame;
  const e = m.entities;
  const of = (id: string) => props.relations.filter((r) => r.subjectId === id || r.objectId === id);
  return (
    <Layout frame={props.frame} title={e.heading}>
      <h1>{e.heading}</h1>
      <p class="muted">{e.intro}</p>
      <div class="card">
        {props.entities.length === 0 ? <p class="muted">{e.none}</p> : null}
        {props.entities.length > 0 ? (
          <ul class="entities" id="entities">
            {props.entities.map((x) => (
              <EntityRow e={x} relations={of(x.id)} frame={props.frame} />
            ))}
          </ul>
        ) : null}
      </div>
      <p>
        {props.cursor ? <a href="/dashboard/entities">{e.first}</a> : null}{" "}
        {props.nextCursor ? (
          <a href={`/dashboard/entities?${new URLSearchParams({ cursor: props.nextCursor })}`} rel="next">
            {e.next}
          </a>
        ) : null}
      </p>
    </Layout>
  );
}

export function EntityPage(props: {
  frame: PageFrame;
  entity: Entity & { relations: EntityRelationView[] };
  memories: Memory[];
}) {
  const { m } = props.frame;
  const { entity, memories } = props;
  const e = m.entities;
  return (
    <Layout frame={props.frame} title={entity.name}>
      <h1 class="entity-name">{entity.name}</h1>
      <p>
        <span class={`badge kind-${entity.kind}`}>{e.kinds[entity.kind] ?? entity.kind}</span>
        {entity.aliases.length > 0 ? (
          <span class="muted">
            {e.aliases}: {entity.aliases.join(", ")}
          </span>
        ) : null}
      </p>
      <div class="card" id="relations">
        <h2>{e.relations}</h2>
        {entity.relations.length === 0 ? <p class="muted">{e.noRelations}</p> : null}
        <Relations relations={entity.relations} self={entity.id} m={m} />
      </div>
      <div class="card" id="memories">
        <h2>{e.memoriesNaming}</h2>
        {memories.length === 0 ? <p class="muted">{e.noMemories}</p> : null}
        {memories.map((memory) => (
          <MemoryItem item={{ memory }} frame={props.frame} />
        ))}
      </div>
      <p>
        <a href="/dashboard/entities">{e.back}</a>
      </p>
    </Layout>
  );
}
