/** The address a person opens: the host as a browser writes it (an IPv6 one in brackets), with the token. */
export function webUrl(host: string, port: number, token: string): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}/?token=${token}`;
}
