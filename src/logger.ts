import pino, { type DestinationStream, type LoggerOptions } from 'pino'

/** Panel secrets travel in the path of `/takeover/<secret>`; they must never reach a log line. */
export function redactUrl (url: string): string {
  return url.replace(/\/takeover\/[^/?#]+/g, '/takeover/[redacted]')
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
