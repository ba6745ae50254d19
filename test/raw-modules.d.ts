/** Vite's `?raw` imports: a file's text as a string (used to check wrangler.toml in tests). */
declare module "*?raw" {
  const text: string;
  export default text;
}
