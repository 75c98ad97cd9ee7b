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
  if (!TAKEOVER_PATH.test(url) && !TAKEOVER_PATH.test(decodeForMatching(url))) return url
  return decodeForMatching(url).replace(/\/takeover\/[^?#]*/gi, '/takeover/[redacted]')
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
