/** A Logger that keeps every message it is given, for tests that check what was (not) logged. */
import type { Logger } from "../../src/memory/ports";

export const recordingLogger = (): Logger & { warnings: string[] } => {
  const warnings: string[] = [];
  return { warnings, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) };
};
