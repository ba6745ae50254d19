/** @jsxImportSource hono/jsx */
/**
 * @module http/dashboard/memories-page
 * Search (through the recall pipeline, scores shown) or browse with filters and cursor paging.
 */
import { memoryPath } from "../../access/memory-links";
import { MEMORY_STATUSES } from "../../memory/contracts";
import type { Memory } from "../../memory/types";
import { routedConversationOf } from "../../router/conversation-id";
import { Layout, type PageFrame, StatusBadge } from "./layout";

export interface MemoryListQuery {
  q: string;
  status: string;
  category: string;
  cursor: string;
}

export interface ListedMemory {
  memory: Memory;
  score?: number;
}

/** A memory's page (access/memory-links.ts is its one home: tools link to it too). */
export const memoryHref = memoryPath;

/** A conversation id shown in a badge: at most this many characters, the whole id in its title. */
const ROUTED_BADGE_CHARS = 24;

/** Which routed conversation (the memory router, docs/router.md) a memory was saved from, if any. */
function RoutedBadge(props: { source: string | null; label: string }) {
  const conversation = routedConversationOf(props.source);
  if (conversation === null) return null;
  const short =
    [...conversation].length > ROUTED_BADGE_CHARS
      ? `${[...conversation].slice(0, ROUTED_BADGE_CHARS).join("")}…`
      : conversation;
  return <span class="badge" title={props.source ?? ""}>{`${props.label} ${short}`}</span>;
}

export function MemoryItem(props: { item: ListedMemory; frame: PageFrame }) {
  const { memory, score } = props.item;
  const { m, fmt } = props.frame;
  return (
    <div class="memory">
      <p class="content">{memory.content}</p>
      <p class="muted">
        <StatusBadge status={memory.status} m={m} />
        <span class="badge">{m.categoryName(memory.category)}</span>
        {memory.tags.map((t) => (
          <span class="badge">#{t}</span>
        ))}
        <RoutedBadge source={memory.source} label={m.memories.routed} />
        {score !== undefined ? <span class="badge score">{`${m.memories.score} ${fmt.score(score)}`}</span> : null}{" "}
        {fmt.when(memory.createdAt)} · <a href={memoryHref(memory.id)}>{m.memories.open}</a>
      </p>
    </div>
  );
}

function Filters(props: { frame: PageFrame; query: MemoryListQuery }) {
  const { m } = props.frame;
  const q = props.query;
  return (
    <form method="get" action="/dashboard/memories" class="filters card">
      <label>
        {m.memories.query}
        <input type="search" name="q" value={q.q} maxlength={1000} />
      </label>
      <label>
        {m.memories.status}
        <select name="status">
          {["active", ...MEMORY_STATUSES.filter((s) => s !== "active"), "all"].map((s) => (
            <option value={s} selected={q.status === s}>
              {s === "all" ? m.memories.all : m.status[s]}
            </option>
          ))}
        </select>
      </label>
      <label>
        {m.memories.category}
        <input type="text" name="category" value={q.category} maxlength={50} placeholder={m.memories.any} />
      </label>
      <button type="submit">{q.q ? m.memories.search : m.memories.apply}</button>
    </form>
  );
}

export function MemoriesPage(props: {
  frame: PageFrame;
  query: MemoryListQuery;
  items: ListedMemory[];
  nextCursor: string | null;
}) {
  const { m } = props.frame;
  const next = new URLSearchParams({ status: props.query.status, category: props.query.category });
  if (props.nextCursor) next.set("cursor", props.nextCursor);
  return (
    <Layout frame={props.frame} title={m.memories.heading}>
      <h1>{m.memories.heading}</h1>
      <Filters frame={props.frame} query={props.query} />
      <div class="card" id="results">
        {props.items.length === 0 ? <p class="muted">{m.memories.none}</p> : null}
        {props.items.map((item) => (
          <MemoryItem item={item} frame={props.frame} />
        ))}
      </div>
      <p>
        {props.query.cursor ? (
          <a
            href={`/dashboard/memories?${new URLSearchParams({ status: props.query.status, category: props.query.category })}`}
          >
            {m.memories.first}
          </a>
        ) : null}{" "}
        {props.nextCursor ? (
          <a href={`/dashboard/memories?${next}`} rel="next">
            {m.memories.next}
          </a>
        ) : null}
      </p>
    </Layout>
  );
}
