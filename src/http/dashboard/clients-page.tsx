/** @jsxImportSource hono/jsx */
/**
 * @module http/dashboard/clients-page
 * The OAuth grants of the signed-in person: client name (self-asserted by the client, so escaped
 * like any untrusted text), access, when connected and last refreshed, and revoke.
 */
import { Layout, type PageFrame, PostForm } from "./layout";

export interface ClientGrant {
  id: string;
  clientName: string;
  scopes: string[];
  createdAt: number;
  lastRefreshedAt: number | null;
}

export function ClientsPage(props: { frame: PageFrame; grants: ClientGrant[] | null }) {
  const { m, csrf, fmt } = props.frame;
  const c = m.clients;
  return (
    <Layout frame={props.frame} title={c.heading}>
      <h1>{c.heading}</h1>
      <p class="muted">{props.grants === null ? c.unavailable : c.intro}</p>
      {props.grants && props.grants.length === 0 ? <p class="muted">{c.none}</p> : null}
      {props.grants && props.grants.length > 0 ? (
        <div class="card scroll">
          <table id="grants" class="stack">
            <thead>
              <tr>
                <th>{c.client}</th>
                <th>{c.scopes}</th>
                <th>{c.created}</th>
                <th>{c.lastUsed}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {props.grants.map((g) => (
                <tr>
                  <td data-label={c.client}>{g.clientName}</td>
                  <td data-label={c.scopes}>{g.scopes.join(" ")}</td>
                  <td data-label={c.created}>{fmt.when(g.createdAt)}</td>
                  <td data-label={c.lastUsed}>{fmt.when(g.lastRefreshedAt)}</td>
                  <td>
                    <PostForm action={`/dashboard/clients/${encodeURIComponent(g.id)}/revoke`} csrf={csrf ?? ""}>
                      <button type="submit" class="danger">
                        {c.revoke}
                      </button>
                    </PostForm>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Layout>
  );
}
