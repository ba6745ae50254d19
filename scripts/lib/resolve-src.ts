/**
 * @module scripts/lib/resolve-src
 * Lets plain Node load src/ modules from a script (`node --import ./scripts/lib/resolve-src.ts …`):
 * src/ writes its relative imports without the `.ts` extension (wrangler's bundler and Vitest
 * resolve them), which Node's own resolver refuses. A relative import from a file under src/ that
 * Node cannot find is tried once more with `.ts`; a JSON module imported from src/ (the bundler needs
 * no import attribute) is loaded as JSON; everything else resolves as Node resolves it.
 */
import { registerHooks } from "node:module";

const SRC = "/src/";

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier.endsWith(".json") && context.parentURL?.includes(SRC) && context.importAttributes.type === undefined)
      return { ...nextResolve(specifier, context), importAttributes: { ...context.importAttributes, type: "json" } };
    try {
      return nextResolve(specifier, context);
    } catch (err) {
      const fromSrc = context.parentURL?.includes(SRC) ?? false;
      const missing = err instanceof Error && "code" in err && err.code === "ERR_MODULE_NOT_FOUND";
      if (!missing || !fromSrc || !specifier.startsWith(".") || specifier.endsWith(".ts")) throw err;
      return nextResolve(`${specifier}.ts`, context);
    }
  },
});
