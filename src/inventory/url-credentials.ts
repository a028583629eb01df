/** Credentials written into api_url (`https://user:pw@host`): taken out of the URL so it can be shown, kept apart to authenticate. */

export interface UrlCredentials {
  /** The URL without userinfo: the only form ever shown. */
  url: string;
  username?: string;
  password?: string;
}

// scheme://userinfo@ : userinfo ends at the last @ before the path
const USERINFO = /^([a-z][\w+.-]*:\/\/)([^/?#]*)@/i;

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Splits userinfo off a URL; the rest of the text is kept as written (grouping by api_url compares it). */
export function splitUrlCredentials(raw: string): UrlCredentials {
  const m = USERINFO.exec(raw);
  if (!m) return { url: raw };
  const info = m[2]!;
  const colon = info.indexOf(':');
  const user = decode(colon < 0 ? info : info.slice(0, colon));
  const password = colon < 0 ? undefined : decode(info.slice(colon + 1));
  return {
    url: m[1]! + raw.slice(m[0].length),
    ...(user ? { username: user } : {}),
    ...(password ? { password } : {}),
  };
}

/** The URL as it may be shown. */
export const displayUrl = (raw: string): string => splitUrlCredentials(raw).url;
