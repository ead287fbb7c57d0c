import pino, { type Logger } from 'pino';

/** JSON logs on stdout. Redaction is a second line of defence: request logs never include headers or bodies. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'receivables' },
    redact: { paths: ['*.authorization', '*.clientSecret', '*.secret', '*.accessToken', '*.password'], censor: '[redacted]' },
  });
}
