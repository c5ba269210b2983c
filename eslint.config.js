import { configApp, RULES_LIST } from '@adonisjs/eslint-config'

export default configApp(
  { ignores: ['tmp/**', 'build/**'] },
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
  }
)
