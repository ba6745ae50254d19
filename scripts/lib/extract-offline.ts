/**
 * @module scripts/lib/extract-offline
 * The extraction benchmark without a server (`npm run bench:extract -- --offline`): each session or
 * conversation goes through what summarize_conversation does before it saves (parse the transcript
 * and its roles, redact secrets, extract with the offline rules, attribute each fact to its
 * message), and every extracted fact counts as stored. The save pipeline's own steps (the value
 * filter on save, merging near duplicates) are not run, so these figures bound the server's from
 * the extractor's side; QA through extraction needs a store and is not measured here. `--show`
 * lists what the dev split misses and keeps that should not be kept (never the test split's).
 */
import { redactSecrets } from "../../src/memory/write/redact-secrets.ts";
import { assignMessageRoles, parseTranscript } from "../../src/memory/write/transcript.ts";
import { attributeTurn } from "../../src/memory/write/turn-attribution.ts";
import { extractFactsByRules } from "../../src/providers/rules/extract-facts.ts";
import type { SpeakerCase } from "./extract-data.ts";
import { addScores, type FactOutcome, type SessionScore, scoreSession } from "./extract-metrics.ts";
import { addZh, matchesFact, scoreConversation, type ZhConversation, type ZhScore } from "./extract-zh.ts";

export interface Extracted {
  content: string;
  turn: number | null;
}

/** What summarize_conversation extracts from `messages` before it saves, each fact with its 1-based turn. */
export function extractOffline(messages: { role: string; content: string }[]): Extracted[] {
  const redacted = messages.map((m) => ({ role: m.role, content: redactSecrets(m.content).text }));
  return extractFactsByRules(redacted).map((f) => ({ content: f.content, turn: attributeTurn(f, redacted) }));
}

export interface OfflineLocomo {
  score: SessionScore;
  sessions: number;
  /** What the rules kept from turns that carry no observation, and missed on turns that do. */
  shown: string[];
  /** Every fact kept from a turn that carries no observation, with that turn, in file order. */
  unobserved: { diaId: string; fact: string; turn: string }[];
}

/** LoCoMo speakers through the rules, scored as bench:extract scores the server's answers. */
export function offlineLocomo(cases: SpeakerCase[], show: boolean): OfflineLocomo {
  let score: SessionScore = { observations: 0, covered: 0, stored: 0, precise: 0, noise: 0, filler: 0 };
  const shown: string[] = [];
  const unobserved: OfflineLocomo["unobserved"] = [];
  let sessions = 0;
  let n = 0;
  for (const c of cases) {
    for (const session of c.sessions) {
      sessions++;
      const facts = extractOffline(parseTranscript(session.transcript, { userName: c.speaker }));
      const outcomes: FactOutcome[] = facts.map((f) => ({ status: "created", id: `m${n++}`, turn: f.turn }));
      score = addScores(score, scoreSession(session, c.speaker, outcomes, new Map()));
      if (show) shown.push(...locomoShown(session, c.speaker, facts));
      for (const f of facts) {
        const turn = f.turn === null ? undefined : session.turns[f.turn - 1];
        if (turn && !session.observed.has(turn.diaId))
          unobserved.push({ diaId: `${c.sampleId}/${turn.diaId}`, fact: f.content, turn: turn.text });
      }
    }
  }
  return { score, sessions, shown, unobserved };
}

function locomoShown(session: SpeakerCase["sessions"][number], speaker: string, facts: Extracted[]): string[] {
  const out: string[] = [];
  const produced = new Set(facts.map((f) => (f.turn === null ? "" : session.turns[f.turn - 1]?.diaId)));
  for (const f of facts) {
    const turn = f.turn === null ? undefined : session.turns[f.turn - 1];
    if (turn && !session.observed.has(turn.diaId)) out.push(`  kept   ${turn.diaId}  ${f.content}`);
  }
  for (const evidence of session.observations) {
    if (evidence.some((id) => produced.has(id))) continue;
    const turn = session.turns.find((t) => t.diaId === evidence[0] && t.speaker === speaker);
    if (turn) out.push(`  missed ${turn.diaId}  ${turn.text}`);
  }
  return out;
}

export interface OfflineZh {
  bySplit: Record<string, ZhScore>;
  shown: string[];
}

/** The Chinese set through the rules, scored by split; `show` lists the dev split's misses. */
export function offlineChinese(conversations: ZhConversation[], show: boolean): OfflineZh {
  const bySplit: Record<string, ZhScore> = {};
  const shown: string[] = [];
  for (const c of conversations) {
    const facts = extractOffline(assignMessageRoles(c.messages));
    const outcomes = facts.map((f) => ({ content: f.content, status: "created", turn: f.turn }));
    const zero: ZhScore = { facts: 0, covered: 0, stored: 0, precise: 0, noise: 0 };
    bySplit[c.split] = addZh(bySplit[c.split] ?? zero, scoreConversation(c, outcomes));
    if (show && c.split === "dev") shown.push(...zhShown(c, facts));
  }
  return { bySplit, shown };
}

function zhShown(c: ZhConversation, facts: Extracted[]): string[] {
  const out: string[] = [];
  const held = (f: ZhConversation["facts"][number], x: Extracted) => matchesFact(x, f);
  for (const f of c.facts) if (!facts.some((x) => held(f, x))) out.push(`  missed ${c.id}:${f.turn}  ${f.fact}`);
  for (const x of facts) if (!c.facts.some((f) => held(f, x))) out.push(`  kept   ${c.id}:${x.turn}  ${x.content}`);
  return out;
}
