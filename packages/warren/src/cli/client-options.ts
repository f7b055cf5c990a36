/** The access token a client command sends: --token, else WARREN_TOKEN, else none. */
export function clientToken(flag: string | boolean | string[] | undefined): string | undefined {
  if (typeof flag === "string") return flag;
  return process.env.WARREN_TOKEN || undefined;
}
