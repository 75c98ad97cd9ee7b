import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.tap/', 'coverage/', 'profiles/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['test/**/*.ts', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' }
  },
  {
    languageOptions: {
      globals: {
        process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly',
        setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', URL: 'readonly',
        window: 'readonly', document: 'readonly', navigator: 'readonly', WebSocket: 'readonly',
        fetch: 'readonly', performance: 'readonly', requestAnimationFrame: 'readonly',
        location: 'readonly', Blob: 'readonly', createImageBitmap: 'readonly',
        AbortSignal: 'readonly', AbortController: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly'
      }
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }]
    }
  }
)
