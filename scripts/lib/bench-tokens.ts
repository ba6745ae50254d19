/**
 * @module scripts/lib/bench-tokens
 * The token estimate every figure of the recall benchmark uses for what an agent receives: the
 * product's own (src/memory/text/token-estimate.ts), the one stage 1 of progressive injection budgets with.
 */
export { estimateTokens } from "../../src/memory/text/token-estimate.ts";
