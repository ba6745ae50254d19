/**
 * @module memory/entities/kind-lexicon
 * The one lexicon of the kind rules (entity-kind-en.ts). Programming languages, developer tools and
 * everyday software and devices whose names look like a person's or a place's ("Rust", "Swift",
 * "Ruby", "Django", "Notion"), so a text that names one without a telling verb still reads it as a
 * product; consulted after the context rules, which outrank it. Names that are mostly something
 * else ("Go", "Java", "Amazon", "Apple") are left out. And the languages people speak, which the
 * verbs of products take too ("learning German") but which are none of the kinds. Lower case. Data only.
 */

export const PRODUCT_NAMES: ReadonlySet<string> = new Set(
  // Programming languages.
  (
    "rust python javascript typescript kotlin swift ruby haskell scala elixir erlang clojure perl php " +
    "fortran cobol lua julia matlab golang ocaml dart zig sql graphql html css " +
    // Frameworks, runtimes and developer tools.
    "django flask rails react vue angular svelte node.js deno nodejs docker kubernetes terraform ansible " +
    "postgres postgresql mysql sqlite mongodb redis kafka spark hadoop tensorflow pytorch numpy pandas " +
    "github gitlab bitbucket jira confluence jenkins vscode xcode intellij vim emacs linux ubuntu debian " +
    "windows macos ios android chatgpt copilot " +
    // Everyday software and devices.
    "photoshop illustrator figma excel powerpoint slack notion trello zoom discord whatsapp telegram " +
    "instagram tiktok snapchat spotify kindle iphone ipad macbook playstation xbox minecraft fortnite"
  ).split(" "),
);

/** Languages people speak: "learning German" says nothing of a product, so they keep kind `other`. */
export const HUMAN_LANGUAGES: ReadonlySet<string> = new Set(
  (
    "english spanish french german italian portuguese dutch swedish norwegian danish finnish polish russian " +
    "ukrainian greek turkish arabic hebrew hindi urdu bengali chinese mandarin cantonese japanese korean " +
    "vietnamese thai indonesian latin"
  ).split(" "),
);
