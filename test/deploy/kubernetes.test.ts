// The Kubernetes manifests keep the invariants scaling depends on (docs/spec.md section 14,
// docs/scaling.md): parsed as YAML, checked field by field.
import t from 'tap'
import { readdir, readFile } from 'node:fs/promises'
import { parseAllDocuments } from 'yaml'

interface Doc { kind: string, metadata: { name: string, labels?: Record<string, string> }, spec: any, stringData?: Record<string, string> }

const dir = new URL('../../deploy/kubernetes/', import.meta.url)

async function load (): Promise<Doc[]> {
  const docs: Doc[] = []
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.yaml')).sort()) {
    for (const d of parseAllDocuments(await readFile(new URL(name, dir), 'utf8'))) {
      if (d.errors.length) throw new Error(`${name}: ${d.errors[0].message}`)
      if (d.contents) docs.push(d.toJS() as Doc)
    }
  }
  return docs
}

const matches = (selector: Record<string, string>, labels: Record<string, string>): boolean =>
  Object.entries(selector).every(([k, v]) => labels[k] === v)

t.test('the StatefulSet, its Services, Secret and PodDisruptionBudget agree', async (t) => {
  const docs = await load()
  const one = (kind: string, name?: string): Doc => {
    const found = docs.filter((d) => d.kind === kind && (name === undefined || d.metadata.name === name))
    if (found.length !== 1) throw new Error(`expected one ${kind} ${name ?? ''}, found ${found.length}`)
    return found[0]
  }
  const sts = one('StatefulSet')
  const pod = sts.spec.template
  const labels = pod.metadata.labels as Record<string, string>
  t.ok(matches(sts.spec.selector.matchLabels, labels), 'the StatefulSet selects its own pods')
  t.ok(sts.spec.replicas >= 2, 'more than one replica')

  const headless = one('Service', sts.spec.serviceName)
  t.equal(headless.spec.clusterIP, 'None', 'serviceName is a headless Service (per-replica DNS)')
  t.ok(matches(headless.spec.selector, labels), 'which selects the pods')

  const c = pod.spec.containers[0]
  const env = new Map((c.env as Array<{ name: string, value?: string, valueFrom?: any }>).map((e, i) => [e.name, { ...e, index: i }]))
  t.notOk(c.command ?? c.args, 'the image\'s own init and command run')
  t.equal(env.get('AFHTTP_HOST')?.value, '0.0.0.0')

  // One PVC per replica at /profiles.
  const claim = (sts.spec.volumeClaimTemplates as Doc[]).find((v) => v.metadata.name === 'profiles')
  t.ok(claim, 'a volumeClaimTemplate for profiles')
  t.same(claim!.spec.accessModes, ['ReadWriteOnce'], 'each replica\'s volume is its own (never shared)')
  const mounts = new Map((c.volumeMounts as Array<{ name: string, mountPath: string }>).map((m) => [m.mountPath, m.name]))
  t.equal(mounts.get('/profiles'), 'profiles', 'mounted at /profiles')
  t.equal(env.get('AFHTTP_PROFILES_DIR')?.value, '/profiles')

  // /dev/shm from memory, like compose's shm_size.
  const shm = (pod.spec.volumes as Array<{ name: string, emptyDir?: { medium?: string, sizeLimit?: string } }>).find((v) => v.name === mounts.get('/dev/shm'))
  t.equal(shm?.emptyDir?.medium, 'Memory', '/dev/shm is an emptyDir in memory')
  t.ok(shm?.emptyDir?.sizeLimit, 'with a size limit')

  // Tokens from a Secret that exists (as an example) with those keys.
  const secret = one('Secret')
  for (const name of ['AFHTTP_TOKEN', 'AFHTTP_OPS_TOKEN']) {
    const ref = env.get(name)?.valueFrom?.secretKeyRef
    t.ok(ref, `${name} comes from a Secret`)
    t.equal(ref.name, secret.metadata.name)
    t.ok(secret.stringData?.[ref.key] !== undefined, `the Secret has key ${ref.key}`)
    t.notOk(env.get(name)?.value, `${name} is never written in the manifest`)
  }

  // Each replica names itself: POD_NAME from the downward API, defined before it is used.
  const podName = env.get('POD_NAME')
  t.equal(podName?.valueFrom?.fieldRef?.fieldPath, 'metadata.name')
  const publicUrl = env.get('AFHTTP_PUBLIC_URL')
  t.match(publicUrl?.value, /^https?:\/\/[^/]+\/.*\$\(POD_NAME\)/, 'AFHTTP_PUBLIC_URL carries the pod name')
  t.ok(podName!.index < publicUrl!.index, 'POD_NAME is defined first, so Kubernetes expands it')

  // Readiness is /health with the ops token; liveness only the process.
  t.same(c.readinessProbe.exec?.command, ['node', 'scripts/healthcheck.mjs'], 'readiness runs the image healthcheck against /health')
  const healthcheck = await readFile(new URL('../../scripts/healthcheck.mjs', import.meta.url), 'utf8')
  t.match(healthcheck, /process\.env\.AFHTTP_OPS_TOKEN \|\| process\.env\.AFHTTP_TOKEN/, 'which prefers the ops token')
  t.match(healthcheck, /\/health/)
  t.ok(c.livenessProbe.tcpSocket, 'liveness checks the process accepts connections, not the browser')
  t.notOk(c.livenessProbe.exec ?? c.livenessProbe.httpGet, 'a browser problem never restarts the pod')
  const port = (c.ports as Array<{ name: string, containerPort: number }>)[0]
  t.ok(c.livenessProbe.tcpSocket.port === port.name || c.livenessProbe.tcpSocket.port === port.containerPort)
  t.equal(port.containerPort, 8787)

  t.ok(c.resources?.requests?.cpu && c.resources?.requests?.memory, 'resource requests are set')
  t.ok(c.resources?.limits?.memory, 'and a memory limit')
  t.equal(pod.spec.securityContext.runAsNonRoot, true, 'runs as a non-root user')

  const pdb = one('PodDisruptionBudget')
  t.ok(matches(pdb.spec.selector.matchLabels, labels), 'the PodDisruptionBudget covers the pods')
  t.equal(pdb.spec.maxUnavailable, 1, 'one replica at a time')

  // The ingress routes /r/<pod>/ to each replica's own Service, matching AFHTTP_PUBLIC_URL.
  const ingress = one('Ingress')
  const prefix = new URL(publicUrl!.value!.replace('$(POD_NAME)', 'POD')).pathname.replace('POD', '')
  const paths = ingress.spec.rules[0].http.paths as Array<{ path: string, backend: { service: { name: string } } }>
  t.equal(ingress.spec.rules[0].host, new URL(publicUrl!.value!.replace('$(POD_NAME)', 'x')).host, 'the ingress serves the public host')
  t.equal(paths.length, sts.spec.replicas, 'one path per replica')
  for (let i = 0; i < sts.spec.replicas; i++) {
    const pod = `${sts.metadata.name}-${i}`
    const path = paths.find((p) => p.path.startsWith(`${prefix}${pod}(`))
    t.ok(path, `${prefix}${pod} is routed`)
    const svc = one('Service', path!.backend.service.name)
    t.same(svc.spec.selector, { 'statefulset.kubernetes.io/pod-name': pod }, `to ${pod} alone`)
  }
})
