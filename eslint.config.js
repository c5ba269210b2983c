import { configApp, RULES_LIST } from '@adonisjs/eslint-config'

export default configApp(
  { ignores: ['tmp/**', 'build/**'] },
  {
    name: 'The pages: Preact islands in resources/js',
    files: ['resources/js/**/*.{ts,tsx}'],
    rules: RULES_LIST,
  }
)
