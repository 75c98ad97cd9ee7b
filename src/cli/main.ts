import { serve } from '../server.js'

const USAGE = `usage: afhttp <command> [options]

commands:
  serve            start the host (configured by AFHTTP_* environment variables)
`

/** Dispatches a subcommand and returns the process exit code. */
export async function main (argv: string[]): Promise<number> {
  const [command] = argv
  if (command === 'serve') {
    await serve()
    return 0
  }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE)
    return command === undefined ? 2 : 0
  }
  process.stderr.write(`afhttp: unknown command "${command}"\n${USAGE}`)
  return 2
}
