import type { AfhttpClient } from '../../client/index.js'
import type { OptionSpec, Target, Values } from '../args.js'
import type { Io } from '../output.js'

/** Things a test may replace: the clock, sleeping, and how Ctrl-C is observed. */
export interface CliDeps {
  now: () => number
  sleep: (ms: number, signal: AbortSignal) => Promise<void>
  /** Calls `fn` on Ctrl-C (SIGINT) until the returned function is called. */
  onInterrupt: (fn: () => void) => () => void
}

export interface CommandContext {
  values: Values
  positionals: string[]
  json: boolean
  target: Target
  /** The client for this run, created on first use and closed by the dispatcher. */
  client: () => AfhttpClient
  io: Io
  deps: CliDeps
  env: Record<string, string | undefined>
}

interface CommandBase {
  name: string
  /** One line for `afhttp --help`. */
  summary: string
  /** Full text for `afhttp <name> --help`. */
  help: string
}

/** A subcommand that talks to a host: its own options, help text and exit code. */
export interface HostCommand extends CommandBase {
  /** `token`: needs the API token; `public`: works without one. */
  access: 'token' | 'public'
  options?: OptionSpec
  run: (ctx: CommandContext) => Promise<number>
}

/** A subcommand configured elsewhere (serve: the environment); it gets its raw arguments. */
export interface LocalCommand extends CommandBase {
  access: 'none'
  runRaw: (argv: string[]) => Promise<number>
}

export type Command = HostCommand | LocalCommand
