import { setTimeout as sleep } from 'node:timers/promises'
import { AfhttpClient } from '../client/index.js'
import { GLOBAL_HELP, UsageError, bool, parseCommandArgs, resolveTarget, splitCommand, type Target } from './args.js'
import { EXIT, processIo, reportError, type Io } from './output.js'
import { COMMANDS, findCommand } from './commands/index.js'
import type { CliDeps, HostCommand } from './commands/command.js'

const USAGE = `usage: afhttp <command> [options]

commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(15)}${c.summary}`).join('\n')}

${GLOBAL_HELP}

Run "afhttp <command> --help" for a command's options. Exit codes: 0 ok,
1 other failure, 2 usage, 3 a person is needed, 4 host or takeover unavailable.
`

export interface MainOptions {
  io?: Io
  env?: Record<string, string | undefined>
  deps?: Partial<CliDeps>
}

const defaultDeps: CliDeps = {
  now: () => Date.now(),
  sleep: async (ms, signal) => { await sleep(ms, undefined, { signal }) },
  onInterrupt: (fn) => {
    process.on('SIGINT', fn)
    return () => { process.off('SIGINT', fn) }
  }
}

/** Dispatches a subcommand and returns the process exit code. */
export async function main (argv: string[], opts: MainOptions = {}): Promise<number> {
  const io = opts.io ?? processIo
  const env = opts.env ?? process.env
  const { command: name, rest } = splitCommand(argv)
  if (name === undefined || name === 'help') {
    const asked = rest.includes('--help') || rest.includes('-h') || name === 'help'
    if (asked) io.out(USAGE)
    else io.err(USAGE)
    return asked ? EXIT.ok : EXIT.usage
  }
  const command = findCommand(name)
  if (!command) {
    io.err(`afhttp: unknown command "${name}"\n${USAGE}`)
    return EXIT.usage
  }
  if (command.access === 'none') {
    if (!rest.includes('--help') && !rest.includes('-h')) return command.runRaw(rest)
    io.out(`${command.help}\n`)
    return EXIT.ok
  }
  return runCommand(command, rest, io, env, { ...defaultDeps, ...opts.deps })
}

async function runCommand (command: HostCommand, argv: string[], io: Io, env: Record<string, string | undefined>, deps: CliDeps): Promise<number> {
  let client: AfhttpClient | undefined
  let target: Target | undefined
  let json = false
  try {
    const { values, positionals } = parseCommandArgs(command.name, argv, command.options)
    if (bool(values, 'help')) {
      io.out(`${command.help}\n\n${GLOBAL_HELP}\n`)
      return EXIT.ok
    }
    json = bool(values, 'json')
    const resolved = resolveTarget(values, env)
    target = resolved
    if (command.access === 'token' && resolved.token === undefined) {
      throw new UsageError('no API token: set AFHTTP_TOKEN or pass --token (a host started without AFHTTP_TOKEN keeps it in <profiles dir>/.afhttp-token)', command.name)
    }
    const connect = (): AfhttpClient => {
      client ??= new AfhttpClient({ url: resolved.url, token: resolved.token })
      return client
    }
    return await command.run({ values, positionals, json, target: resolved, client: connect, io, deps, env })
  } catch (err) {
    return reportError(io, err, { json, tokenGiven: target?.token !== undefined, command: command.name })
  } finally {
    await client?.close().catch(() => undefined)
  }
}
