/** @jsxImportSource hono/jsx */
/**
 * @module http/dashboard/quarantine-page
 * Quarantined memories with the reason they were held, and the two decisions only a person may
 * take: release (the memory becomes active and recallable) or delete.
 */
import type { Memory } from "../../memory/types";
import { Layout, type PageFrame, PostForm } from "./layout";
import { memoryHref } from "./memories-page";

export interface QuarantinedItem {
  memory: Memory;
  reason: string;
}

export function QuarantinePage(props: { frame: PageFrame; items: QuarantinedItem[] }) {
  const { m, csrf, fmt } = props.frame;
  return (
    <Layout frame={props.frame} title={m.quarantine.heading}>
      <h1>{m.quarantine.heading}</h1>
      <p class="muted">{m.quarantine.intro}</p>
      <div class="card" id="quarantined">
        {props.items.length === 0 ? <p class="muted">{m.quarantine.none}</p> : null}
        {props.items.map(({ memory, reason }) => (
          <div class="memory">
            <p class="content">{memory.content}</p>
            <p class="muted">
              {m.quarantine.reason}: <strong>{m.reasons[reason] ?? m.reasons.held}</strong> ·{" "}
              {fmt.when(memory.createdAt)} · <a href={memoryHref(memory.id)}>{m.memories.open}</a>
            </p>
            <PostForm action={`${memoryHref(memory.id)}/release`} csrf={csrf ?? ""} class="inline">
              <button type="submit">{m.memory.release}</button>
            </PostForm>
            <PostForm action={`${memoryHref(memory.id)}/delete`} csrf={csrf ?? ""} class="inline">
              <button type="submit" class="danger">
                {m.memory.delete}
              </button>
            </PostForm>
          </div>
        ))}
      </div>
    </Layout>
  );
}
