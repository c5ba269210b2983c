import { configApp, RULES_LIST } from '@adonisjs/eslint-config'

export default configApp(
  { ignores: ['tmp/**', 'build/**', 'packages/*/dist/**'] },
  {
    name: 'The pages: Preact islands in resources/js',
    files: ['resources/js/**/*.{ts,tsx}'],
    rules: RULES_LIST,
  },
  {
    // One config pattern (docs/architecture.md, "Boot order"): a provider reads the config
    // store once and binds the instance; everything else takes the bound config class.
    name: 'Config is read by its string key in providers only',
    files: ['**/*.{ts,tsx}'],
    ignores: [
      'providers/**',
      'config/**',
      'tests/support/config.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: [
            "MemberExpression[object.property.name='config'][object.object.name='app']",
            "MemberExpression[object.property.name='config'][object.object.property.name='app']",
          ].join(', '),
          message:
            "Take the bound config class (`app.container.make(FeedsConfig)`, `@inject()`, bootedConfig); tests change it with changeConfig (tests/support/config.ts).",
        },
      ],
    },
  },
  {
    // The same pattern for the config files' values: importing one skips the bound instance
    // (and tests' changeConfig). Types are fine; providers bind, config files compose, and
    // commands that run before the app boots (dev:reset) import them.
    name: 'Config files are imported by providers, config and commands only',
    files: ['**/*.{ts,tsx}'],
    ignores: [
      'providers/**',
      'config/**',
      'commands/**',
      'tests/support/config.ts',
      // @adonisjs/core's body parser limits: no config class of ours is bound for them.
      'app/middleware/refuse_oversized_body_middleware.ts',
      'app/middleware/require_json_body_middleware.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['\\#config/*'], // `#` opens a comment in these gitignore-style patterns
              allowTypeImports: true,
              message:
                'Take the bound config class (`await app.container.make(SignInConfig)`, `@inject()`, bootedConfig) instead of the config file.',
            },
          ],
        },
      ],
    },
  }
)
