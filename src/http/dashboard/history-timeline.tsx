/** @jsxImportSource hono/jsx */
/**
 * @module http/dashboard/history-timeline
 * A memory's history as a timeline (history-entries.ts makes the sentences): newest last, each
 * event a sentence, when in the reader's locale and zone (with `<time datetime>`), who did it, and
 * what changed — text as a word-level diff (`<del>` / `<ins>`, which screen readers announce),
 * values as "from → to". Every piece of stored text is escaped by Hono's JSX.
 */
import type { HistoryChange, HistoryEntry } from "./history-entries";
import type { PageFrame } from "./layout";
import { memoryHref } from "./memories-page";

function Change(props: { change: HistoryChange; frame: PageFrame }) {
  const c = props.change;
  const h = props.frame.m.history;
  if (c.kind === "text") {
    return (
      <li>
        <span class="field">{c.label}</span>
        <p class="diff">
          {c.parts.map((p) =>
            p.kind === "added" ? (
              <ins title={h.added}>{p.text}</ins>
            ) : p.kind === "removed" ? (
              <del title={h.removed}>{p.text}</del>
            ) : (
              <span>{p.text}</span>
            ),
          )}
        </p>
      </li>
    );
  }
  if (c.kind === "link") {
    return (
      <li>
        <span class="field">{c.label}</span> <a href={memoryHref(c.id)}>{c.id}</a>
      </li>
    );
  }
  return (
    <li>
      <span class="field">{c.label}</span> <span class="from">{c.from}</span> → <span class="to">{c.to}</span>
    </li>
  );
}

export function HistoryTimeline(props: { frame: PageFrame; entries: HistoryEntry[] }) {
  const { m, fmt } = props.frame;
  return (
    <div class="card">
      <h2>{m.memory.history}</h2>
      {props.entries.length === 0 ? <p class="muted">{m.history.empty}</p> : null}
      <ol class="history" id="history">
        {props.entries.map((e) => (
          <li>
            <p>
              <strong class="op">{e.title}</strong> · <time datetime={fmt.iso(e.at)}>{e.when}</time> ·{" "}
              <span class="muted">
                {m.history.by} {e.actorQuoted ? <q class="actor">{e.actor}</q> : <span class="actor">{e.actor}</span>}
              </span>
            </p>
            {e.changes.length > 0 ? (
              <ul class="changes">
                {e.changes.map((c) => (
                  <Change change={c} frame={props.frame} />
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
