/** @jsxImportSource hono/jsx */
/**
 * @module http/dashboard/devices-page
 * The signed-in person's devices: their user keys with label, created and last used, and revoke
 * (which ends the key, the OAuth grants made with it and its dashboard sessions at once), with the
 * apps they connected through OAuth linked beside them. Labels are the person's own text, escaped.
 */
import type { ApiKeyRecord } from "../../accounts/account-ports";
import { Layout, type PageFrame, PostForm } from "./layout";

export function DevicesPage(props: { frame: PageFrame; keys: ApiKeyRecord[]; currentKeyId: string }) {
  const { m, csrf, fmt } = props.frame;
  const d = m.devices;
  return (
    <Layout frame={props.frame} title={d.heading}>
      <h1>{d.heading}</h1>
      <p class="muted">{d.intro}</p>
      {props.keys.length === 0 ? <p class="muted">{d.none}</p> : null}
      {props.keys.length > 0 ? (
        <div class="card scroll">
          <table id="devices" class="stack">
            <thead>
              <tr>
                <th scope="col">{d.label}</th>
                <th scope="col">{d.created}</th>
                <th scope="col">{d.lastUsed}</th>
                <th scope="col">
                  <span class="visually-hidden">{d.revoke}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {props.keys.map((k) => (
                <tr>
                  <td data-label={d.label}>
                    {k.label ? k.label : <span class="muted">{d.unlabelled}</span>}{" "}
                    {k.id === props.currentKeyId ? <span class="badge">{d.current}</span> : null}
                  </td>
                  <td class="nowrap" data-label={d.created}>
                    {fmt.when(k.createdAt)}
                  </td>
                  <td class="nowrap" data-label={d.lastUsed}>
                    {fmt.when(k.lastUsedAt)}
                  </td>
                  <td>
                    {k.revokedAt === null ? (
                      <PostForm action={`/dashboard/devices/${encodeURIComponent(k.id)}/revoke`} csrf={csrf ?? ""}>
                        <button type="submit" class="danger">
                          {d.revoke}
                        </button>
                      </PostForm>
                    ) : (
                      <span class="badge deleted">{d.revoked}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <p>
        <a href="/dashboard/clients">{d.oauth}</a>
      </p>
    </Layout>
  );
}
