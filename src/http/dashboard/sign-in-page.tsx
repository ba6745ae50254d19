/** @jsxImportSource hono/jsx */
/**
 * @module http/dashboard/sign-in-page
 * The sign-in form. Before a session exists, its CSRF token is a random value in a short-lived
 * SameSite=Strict cookie that the form repeats (double submit), so no other site can sign a
 * person in with the attacker's key.
 */
import { Layout, type PageFrame } from "./layout";

/** `next`: the dashboard page to return to after signing in (already checked by return-to.ts). */
export function SignInPage(props: { frame: PageFrame; loginCsrf: string; next?: string | null }) {
  const { m } = props.frame;
  return (
    <Layout frame={props.frame} title={m.signIn.heading}>
      <div class="card">
        <h1>{m.signIn.heading}</h1>
        <p class="muted">{m.signIn.intro}</p>
        <form method="post" action="/dashboard/sign-in">
          <input type="hidden" name="csrf" value={props.loginCsrf} />
          {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
          <label for="key">{m.signIn.label}</label>
          <input
            type="password"
            id="key"
            name="key"
            autocomplete="off"
            required
            autofocus
            aria-invalid={props.frame.problem ? "true" : undefined}
          />
          <button type="submit">{m.signIn.submit}</button>
        </form>
      </div>
    </Layout>
  );
}
