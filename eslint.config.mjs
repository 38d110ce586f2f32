import tseslint from 'typescript-eslint';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

// n8n's own lint rules for community nodes and credentials (the plugin ships eslintrc-style
// configs; only their rule maps are reused here, in flat-config form).
const n8nRules = (configName) => n8nNodesBase.configs[configName].rules;

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['nodes/**/*.ts'],
    plugins: { 'n8n-nodes-base': n8nNodesBase },
    rules: {
      ...n8nRules('nodes'),
      // As n8n's scanner and `n8n-node lint` configure it: NodeConnectionTypes.Main, not the literal.
      'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
      'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
    },
  },
  {
    files: ['credentials/**/*.ts'],
    plugins: { 'n8n-nodes-base': n8nNodesBase },
    rules: {
      ...n8nRules('credentials'),
      // The rule wants n8n's internal doc slugs; a community credential links a full URL.
      'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
    },
  },
);
