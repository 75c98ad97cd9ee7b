// Regression: on a really full disk a profile update answered 500 `internal`, because the
// ENOSPC came from creating the profile lock, before the metadata writer was reached.
// Here the disk is a real tmpfs filled with dd, and every write goes through the real host.
import t from 'tap'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { startHost } from '../helpers/host.js'
import { mountTmpfs, tmpfsSkip, type Tmpfs } from '../helpers/tmpfs.js'
import { resolveToken, TOKEN_FILE } from '../../src/store/token.js'
import { startCli } from '../cli/_run.js'

const skip = tmpfsSkip()
if (skip) t.comment(`skipping the real full-disk tests: ${skip}`)

/** Every file under dir with its bytes, except the filler: what "byte-identical" is checked against. */
function tree (dir: string, root = dir, out: Record<string, string> = {}): Record<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.name.startsWith('filler')) continue
    if (entry.isDirectory()) {
      out[`${relative(root, path)}/`] = ''
      tree(path, root, out)
    } else {
      out[relative(root, path)] = readFileSync(path).toString('base64')
    }
  }
  return out
}

/** Big enough that a metadata write needs blocks that are not there. */
const bigLabels = (tag: string): Record<string, string> =>
  Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, `${tag}-${'x'.repeat(240)}`]))

t.test('every profile write on a full disk: coded error, nothing changed, works once space is freed', { skip }, async (t) => {
  const fs: Tmpfs = mountTmpfs('1m')
  try {
    const host = await startHost(t, { profilesDir: fs.dir, startBrowser: false })
    t.equal((await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'work', labels: { team: 'a' } }) })).status, 201)
    t.equal((await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'held' }) })).status, 201)
    // A profile whose browser runs holds its lock for the whole process, so its writes skip the lock step.
    await host.app.profiles.acquire('held')
    const before = tree(fs.dir)

    t.ok(fs.fill() > 0, 'dd filled the disk')

    // PATCH of a profile nobody holds: the lock is the first write, and it fails.
    const patch = await host.api('/v1/profiles/work', { method: 'PATCH', body: JSON.stringify({ labels: bigLabels('w') }) })
    t.equal(patch.status, 507)
    const patchErr = (await patch.json()).error
    t.match(patchErr, { code: 'profile_metadata_write_failed', retryable: true, details: { errno: 'ENOSPC', step: /^lock_/, lock_file: join(fs.dir, 'work', 'afhttp.lock') } })
    t.match(patchErr.message, /ENOSPC/)

    // PATCH of a held profile: the metadata write itself meets the full disk.
    const heldPatch = await host.api('/v1/profiles/held', { method: 'PATCH', body: JSON.stringify({ labels: bigLabels('h') }) })
    t.equal(heldPatch.status, 507)
    t.match((await heldPatch.json()).error, { code: 'profile_metadata_write_failed', details: { errno: 'ENOSPC', step: 'write', temp_removed: true } })

    // A create that fails leaves no half-made profile behind.
    const create = await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'fresh', labels: bigLabels('f') }) })
    t.equal(create.status, 507)
    t.match((await create.json()).error, { code: 'profile_metadata_write_failed', details: { errno: 'ENOSPC' } })

    // Owning a profile (what launching its browser does first) needs the lock file.
    await t.rejects(host.app.profiles.acquire('work'), { code: 'profile_lock_write_failed', statusCode: 507, details: { errno: 'ENOSPC' } })
    // The same through the API: a fetch on that profile cannot launch its browser, and says why.
    const fetched = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url: 'http://127.0.0.1:9/never-reached', profile: 'work' }) })
    t.equal(fetched.status, 507)
    t.match((await fetched.json()).error, { code: 'profile_lock_write_failed', details: { errno: 'ENOSPC' } })

    t.same(tree(fs.dir), before, 'every file byte-identical; no temp file, lock or directory left over')
    const list = await host.api('/v1/profiles')
    t.same((await list.json()).profiles.map((p: { name: string }) => p.name), ['default', 'held', 'work'], 'reads still work')

    fs.free()
    const retried = await host.api('/v1/profiles/work', { method: 'PATCH', body: JSON.stringify({ labels: bigLabels('w') }) })
    t.equal(retried.status, 200, 'the same PATCH succeeds once space is freed')
    t.equal(JSON.parse(readFileSync(join(fs.dir, 'work', 'afhttp-profile.json'), 'utf8')).labels.k0, `w-${'x'.repeat(240)}`)
    t.equal((await host.api('/v1/profiles/held', { method: 'PATCH', body: JSON.stringify({ labels: bigLabels('h') }) })).status, 200)
    t.equal((await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'fresh', labels: bigLabels('f') }) })).status, 201)
    t.ok(statSync(join(fs.dir, 'fresh', 'browser')).isDirectory())
    await host.app.profiles.acquire('work')
    await host.close()
    t.same(readdirSync(join(fs.dir, 'work')).sort(), ['afhttp-profile.json', 'browser'], 'released on close, nothing else left')
  } finally {
    fs.unmount()
  }
})

t.test('no inodes left: mkdir, the lock and the metadata temp each fail with a coded ENOSPC', { skip }, async (t) => {
  const fs: Tmpfs = mountTmpfs('4m', 64)
  try {
    const host = await startHost(t, { profilesDir: fs.dir, startBrowser: false })
    t.equal((await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'held' }) })).status, 201)
    await host.app.profiles.acquire('held')
    const before = tree(fs.dir)
    t.ok(fs.fillInodes() > 0, 'every inode used')

    const create = await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'fresh' }) })
    t.equal(create.status, 507)
    t.match((await create.json()).error, { code: 'profile_metadata_write_failed', details: { errno: 'ENOSPC', step: 'mkdir' } })
    const patch = await host.api('/v1/profiles/default', { method: 'PATCH', body: JSON.stringify({ labels: { a: 'b' } }) })
    t.match((await patch.json()).error, { code: 'profile_metadata_write_failed', details: { errno: 'ENOSPC', step: 'lock_open' } })
    const held = await host.api('/v1/profiles/held', { method: 'PATCH', body: JSON.stringify({ labels: { a: 'b' } }) })
    t.match((await held.json()).error, { code: 'profile_metadata_write_failed', details: { errno: 'ENOSPC', step: 'open' } })
    t.same(tree(fs.dir), before, 'nothing changed, nothing half-made')

    fs.free()
    t.equal((await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'fresh' }) })).status, 201)
    t.equal((await host.api('/v1/profiles/default', { method: 'PATCH', body: JSON.stringify({ labels: { a: 'b' } }) })).status, 200)
    await host.close()
  } finally {
    fs.unmount()
  }
})

t.test('a filesystem remounted read-only: EROFS, coded, nothing changed; writable again, it works', { skip }, async (t) => {
  const fs: Tmpfs = mountTmpfs('1m')
  try {
    const host = await startHost(t, { profilesDir: fs.dir, startBrowser: false })
    const before = tree(fs.dir)
    fs.remount('ro')
    try {
      const patch = await host.api('/v1/profiles/default', { method: 'PATCH', body: JSON.stringify({ labels: { a: 'b' } }) })
      t.equal(patch.status, 507)
      t.match((await patch.json()).error, { code: 'profile_metadata_write_failed', details: { errno: 'EROFS' } })
      const create = await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'fresh' }) })
      t.match((await create.json()).error, { code: 'profile_metadata_write_failed', details: { errno: 'EROFS', step: 'mkdir' } })
      await t.rejects(host.app.profiles.acquire('default'), { code: 'profile_lock_write_failed', details: { errno: 'EROFS' } })
      t.same(tree(fs.dir), before)
    } finally {
      fs.remount('rw')
    }
    t.equal((await host.api('/v1/profiles/default', { method: 'PATCH', body: JSON.stringify({ labels: { a: 'b' } }) })).status, 200)
    await host.close()
  } finally {
    fs.unmount()
  }
})

t.test('a host started on a full disk still starts, and says why it has no default profile', { skip }, async (t) => {
  const fs: Tmpfs = mountTmpfs('256k')
  try {
    fs.fill()
    const host = await startHost(t, { profilesDir: fs.dir, startBrowser: false })
    const logged = host.logs.lines.find((l) => String(l.msg).startsWith('default profile is not usable'))
    t.match(logged, { level: 50, code: 'profile_metadata_write_failed', details: { errno: 'ENOSPC' } }, 'logged as a coded error, not a crash')
    t.same((await (await host.api('/v1/profiles')).json()).profiles, [], 'no half-made default profile')
    fs.free()
    t.equal((await host.api('/v1/profiles', { method: 'POST', body: JSON.stringify({ name: 'default' }) })).status, 201, 'it can be created once space is freed')
    await host.close()
  } finally {
    fs.unmount()
  }
})

t.test('the token file on a full disk: the errno, the old file unchanged, no temp, then it works', { skip }, async (t) => {
  const fs: Tmpfs = mountTmpfs('256k')
  try {
    // A stored token too short to use is replaced; on a full disk it must stay as it was.
    writeFileSync(join(fs.dir, TOKEN_FILE), 'short\n', { mode: 0o600 })
    const before = tree(fs.dir)
    fs.fill()
    await t.rejects(resolveToken(undefined, fs.dir), { code: 'ENOSPC' })
    t.same(tree(fs.dir), before, 'old token file byte-identical and no temp file left')

    // The real command: one clear line and exit 2, never a half-written token.
    const cli = startCli(['serve'], { AFHTTP_PROFILES_DIR: fs.dir, AFHTTP_PORT: '0', AFHTTP_HOST: '127.0.0.1' })
    // A serve that wrongly got going would never exit: stop it so the test fails instead of hanging.
    const guard = setTimeout(() => cli.child.kill('SIGKILL'), 30_000)
    const served = await cli.done
    clearTimeout(guard)
    t.equal(served.code, 2, served.stderr)
    t.match(served.stderr, new RegExp(`afhttp: no API token: AFHTTP_TOKEN is unset and ${fs.dir}/\\.afhttp-token could not be created \\(ENOSPC`))
    t.same(tree(fs.dir), before)

    fs.free()
    const resolved = await resolveToken(undefined, fs.dir)
    t.equal(resolved.source, 'generated')
    t.equal(readFileSync(join(fs.dir, TOKEN_FILE), 'utf8'), `${resolved.token}\n`)
    t.equal(statSync(join(fs.dir, TOKEN_FILE)).mode & 0o777, 0o600)
  } finally {
    fs.unmount()
  }
})
