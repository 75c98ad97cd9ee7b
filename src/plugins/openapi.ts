import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import { requiresToken } from './auth.js'
import { OPERATOR_COOKIE, requiresOperatorSession } from '../inbox/operator-session.js'
import { VERSION } from '../version.js'

export const OPENAPI_PATH = '/docs/openapi.json'

interface OpenApiPaths { paths?: Record<string, Record<string, { requestBody?: { required?: boolean, content?: Record<string, { schema?: { type?: unknown } }> } }>> }

/** A body whose schema admits null (the mint, the snapshot) may be left out: say so. */
function optionalNullableBodies (doc: OpenApiPaths): OpenApiPaths {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      const type = op.requestBody?.content?.['application/json']?.schema?.type
      if (op.requestBody && Array.isArray(type) && type.includes('null')) op.requestBody.required = false
    }
  }
  return doc
}

/**
 * The OpenAPI 3.1 document (docs/spec.md section 5), collected by @fastify/swagger from the same route
 * schemas that validate requests and serialize responses. Registered before the routes so it
 * sees every one of them; the document itself is public, like /capabilities.
 */
async function openapi (app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'afhttp',
        version: VERSION,
        description: 'Takeover host: persistent Chromium profiles that fetch pages for programs and hand a live tab to a person when a page needs one. Every failure answers with the error envelope; codes are listed in docs/errors.md.'
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'AFHTTP_TOKEN (or the ops token, for GET /health and GET /metrics only)' },
          operatorCookie: { type: 'apiKey', in: 'cookie', name: OPERATOR_COOKIE, description: 'the inbox cookie: AFHTTP_OPERATOR_TOKEN exchanged once at GET /inbox/login (docs/inbox.md)' }
        }
      }
    },
    // The same rule the auth hook applies, so the document cannot claim a different one.
    transform: ({ schema, url }) => ({
      schema: requiresToken(url)
        ? { ...schema, security: [{ bearer: [] }] } as typeof schema
        : requiresOperatorSession(url) ? { ...schema, security: [{ operatorCookie: [] }] } as typeof schema : schema,
      url
    }),
    // Always the OpenAPI branch: this plugin configures `openapi`, never `swagger` (2.0).
    transformObject: (doc) => optionalNullableBodies(('openapiObject' in doc ? doc.openapiObject : doc.swaggerObject) as OpenApiPaths) as ReturnType<typeof JSON.parse>
  })
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger())
}

export default fp(openapi, { name: 'afhttp-openapi' })
