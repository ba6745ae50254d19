/** @jsxImportSource hono/jsx */
/**
 * @module http/dashboard/memory-page
 * One memory: its fields, supersede chain, full history, and the actions its status allows —
 * edit and delete (active), restore (deleted, superseded, expired), release or delete (quarantined).
 */
import type { Memory, MemoryEvent } from "../../memory/types";
import type { HistoryEntry } from "./history-entries";
import { HistoryTimeline } from "./history-timeline";
import { Layout, type PageFrame, PostForm, StatusBadge } from "./layout";
import { MemoryItem, memoryHref } from "./memories-page";

export interface MemoryDetail {
  memory: Memory;
  events: MemoryEvent[];
  supersedes: Memory[];
  supersededBy: Memory | null;
}

function Actions(props: { frame: PageFrame; memory: Memory }) {
  const { m, csrf } = props.frame;
  const base = memoryHref(props.memory.id);
  const status = props.memory.status;
  const token = csrf ?? "";
  return (
    <p>
      {status === "quarantined" ? (
        <PostForm action={`${base}/release`} csrf={token} class="inline">
          <button type="submit">{m.memory.release}</button>
        </PostForm>
      ) : null}
      {status === "deleted" || status === "superseded" || status === "expired" ? (
        <PostForm action={`${base}/restore`} csrf={token} class="inline">
          <button type="submit">{m.memory.restore}</button>
        </PostForm>
      ) : null}
      {status !== "deleted" ? (
        <PostForm action={`${base}/delete`} csrf={token} class="inline">
          <button type="submit" class="danger">
            {m.memory.delete}
          </button>
        </PostForm>
      ) : null}
    </p>
  );
}

function EditForm(props: { frame: PageFrame; memory: Memory }) {
  const { m, csrf } = props.frame;
  const mem = props.memory;
  return (
    <div class="card">
      <h2>{m.memory.edit}</h2>
      <PostForm action={`${memoryHref(mem.id)}/edit`} csrf={csrf ?? ""}>
        <label for="content">{m.memory.content}</label>
        <textarea id="content" name="content" maxlength={8000} required>
          {mem.content}
        </textarea>
        <label for="category">{m.memories.category}</label>
        <input type="text" id="category" name="category" value={mem.category} maxlength={50} />
        <label for="tags">{m.memory.tags}</label>
        <input type="text" id="tags" name="tags" value={mem.tags.join(", ")} />
        <label for="priority">{m.memory.priority}</label>
        <select id="priority" name="priority">
          {["1", "2", "3", "4", "5"].map((p) => (
            <option value={p} selected={String(mem.priority) === p}>
              {m.priorities[p]}
            </option>
          ))}
        </select>
        <button type="submit">{m.memory.save}</button>
      </PostForm>
    </div>
  );
}

export function MemoryPage(props: { frame: PageFrame; detail: MemoryDetail; history: HistoryEntry[] }) {
  const { m, fmt } = props.frame;
  const { memory, supersedes, supersededBy } = props.detail;
  return (
    <Layout frame={props.frame} title={m.nav.memories}>
      <p>
        <a href="/dashboard/memories">{m.memory.back}</a>
      </p>
      <div class="card">
        <p class="content" id="memory-content">
          {memory.content}
        </p>
        <p class="muted">
          <StatusBadge status={memory.status} m={m} /> <span class="badge">{m.categoryName(memory.category)}</span>
          <span class="badge">{m.priorities[String(memory.priority)]}</span>
          <span class="badge">{m.types[memory.memoryType] ?? memory.memoryType}</span>
          {memory.tags.map((t) => (
            <span class="badge">#{t}</span>
          ))}
        </p>
        <p class="muted">
          {m.memory.created} {fmt.when(memory.createdAt)} · {m.memory.updated} {fmt.when(memory.updatedAt)}
          {" · "}
          {memory.agentId ? `${m.memory.agent}: ${memory.agentId}` : m.memory.shared}
          {memory.source ? ` · ${m.memory.source}: ${memory.source}` : ""}
        </p>
        <Actions frame={props.frame} memory={memory} />
      </div>
      {supersededBy || supersedes.length > 0 || memory.derivedFrom.length > 0 ? (
        <div class="card" id="chain">
          {supersededBy ? (
            <div>
              <h2>{m.memory.supersededBy}</h2>
              <MemoryItem item={{ memory: supersededBy }} frame={props.frame} />
            </div>
          ) : null}
          {supersedes.length > 0 ? (
            <div>
              <h2>{m.memory.supersedes}</h2>
              {supersedes.map((s) => (
                <MemoryItem item={{ memory: s }} frame={props.frame} />
              ))}
            </div>
          ) : null}
          {memory.derivedFrom.length > 0 ? (
            <p>
              {m.memory.derivedFrom}:{" "}
              {memory.derivedFrom.map((id) => (
                <a href={memoryHref(id)}>{id} </a>
              ))}
            </p>
          ) : null}
        </div>
      ) : null}
      {memory.status === "active" ? <EditForm frame={props.frame} memory={memory} /> : null}
      <HistoryTimeline frame={props.frame} entries={props.history} />
    </Layout>
  );
}
