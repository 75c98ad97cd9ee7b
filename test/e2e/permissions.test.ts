// Permission prompts are browser UI nobody sees (docs/spec.md section 16): denied for every origin by
// default, and granted per origin only where the profile's metadata says so.
import t from 'tap'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startHost } from '../helpers/host.js'
import { startFixtureServer } from '../helpers/fixture-server.js'

const PROBE = `<!doctype html><title>Permissions</title><p>Which permissions does this page have right now?</p><p id="o"></p>
<script>
Promise.all(['geolocation', 'notifications', 'camera'].map((n) => navigator.permissions.query({ name: n }).then((s) => n + '=' + s.state)))
  .then((r) => { document.getElementById('o').textContent = r.join(' ') + ' Notification=' + Notification.permission })
</script>`

t.test('permissions: denied by default, granted per origin by the profile', async (t) => {
  const granted = await startFixtureServer(t, { '/p': { body: PROBE } })
  const other = await startFixtureServer(t, { '/p': { body: PROBE } })
  const dir = await mkdtemp(join(tmpdir(), 'afhttp-perm-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await mkdir(join(dir, 'default'))
  const at = new Date().toISOString()
  await writeFile(join(dir, 'default', 'afhttp-profile.json'), JSON.stringify({
    schema_version: 1, name: 'default', backend: 'chromium', labels: {}, permissions: { [granted.url]: ['geolocation'] }, created_at: at, updated_at: at
  }))
  const host = await startHost(t, { profilesDir: dir })
  const read = async (url: string): Promise<string> => {
    const res = await host.api('/v1/fetch', { method: 'POST', body: JSON.stringify({ url, wait: 'selector:#o', capture: ['text'] }) })
    const body = await res.json() as { artifacts: { text: string } }
    return /geolocation=\S+ notifications=\S+ camera=\S+ Notification=\S+/.exec(body.artifacts.text)?.[0] ?? body.artifacts.text
  }
  t.equal(await read(`${granted.url}/p`), 'geolocation=granted notifications=denied camera=denied Notification=denied', 'the granted origin has geolocation, nothing else')
  t.equal(await read(`${other.url}/p`), 'geolocation=denied notifications=denied camera=denied Notification=denied', 'every other origin is denied: no invisible prompt waits')
  const profile = await (await host.api('/v1/profiles/default')).json() as Record<string, any>
  t.same(profile.profile.permissions, { [granted.url]: ['geolocation'] }, 'the grant is part of the profile metadata')
})

t.test('invalid permissions in metadata are profile_metadata_invalid, naming the field', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'afhttp-perm-bad-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await mkdir(join(dir, 'default'))
  const at = new Date().toISOString()
  await writeFile(join(dir, 'default', 'afhttp-profile.json'), JSON.stringify({
    schema_version: 1, name: 'default', backend: 'chromium', labels: {}, permissions: { 'https://a.example': ['telepathy'] }, created_at: at, updated_at: at
  }))
  const host = await startHost(t, { profilesDir: dir, startBrowser: false })
  const res = await host.api('/v1/profiles/default')
  const body = await res.json() as { error: { code: string, message: string } }
  t.equal(body.error.code, 'profile_metadata_invalid')
  t.match(body.error.message, /permissions "https:\/\/a\.example" names "telepathy"/)
})
