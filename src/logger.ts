import pino, { type DestinationStream, type LoggerOptions } from 'pino'

/** Percent-decodes byte by byte (never throws on broken encoding), a few rounds for double encoding. */
function decodeForMatching (url: string): string {
  let out = url
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(out); i++) {
    out = out.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  }
  return out
}

const TAKEOVER_PATH = /\/takeover(\/|$)/i

/**
 * Panel secrets travel in the path of `/takeover/<secret>`; they must never reach a log line.
 * The router decodes paths, so `/%74akeover/<secret>` reaches the same route: the check runs
 * on a decoded, case-insensitive view, and such a URL is logged decoded with the secret cut.
 */
export function redactUrl (url: string): string {
  const out = !TAKEOVER_PATH.test(url) && !TAKEOVER_PATH.test(decodeForMatching(url))
    ? url
    : decodeForMatching(url).replace(/\/takeover\/[^?#]*/gi, '/takeover/[redacted]')
  return redactTokenQuery(out)
}

const TOKEN_QUERY = /([?&;])token=[^&#;]*/i

/** The operator token travels once in `/inbox/login?token=` (docs/spec.md section 20); it never reaches a log line either. */
function redactTokenQuery (url: string): string {
  const decoded = decodeForMatching(url)
  if (!TOKEN_QUERY.test(url) && !TOKEN_QUERY.test(decoded)) return url
  return decoded.replace(new RegExp(TOKEN_QUERY.source, 'gi'), '$1token=[redacted]')
}

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'token',
  '*.token'
]

export function loggerOptions (level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req (req: { method?: string, url?: string, ip?: string }) {
        return { method: req.method, url: redactUrl(req.url ?? ''), remoteAddress: req.ip }
      }
    }
  }
}

export function createLogger (level: string, stream?: DestinationStream): pino.Logger {
  return stream ? pino(loggerOptions(level), stream) : pino(loggerOptions(level))
}
