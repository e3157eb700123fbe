#!/usr/bin/env node
// Lists promises that are neither awaited, returned, assigned nor explicitly `void`ed: with an
// async store, a write that nobody awaits is a write whose failure nobody sees. Biome has no
// type-aware rule for this, so the typecheck runs it (TypeScript's own checker, no new library).
//   node scripts/floating-promises.mjs <tsconfig.json>...
import { createRequire } from 'node:module';
import { dirname, relative } from 'node:path';

const require = createRequire(import.meta.url);
let failures = 0;
for (const project of process.argv.slice(2)) {
  const ts = require(require.resolve('typescript', { paths: [dirname(project)] }));
  const config = ts.getParsedCommandLineOfConfigFile(
    project,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
  );
  const program = ts.createProgram(config.fileNames, config.options);
  const checker = program.getTypeChecker();
  const isPromise = (type) => {
    if (type.isUnion()) return type.types.some(isPromise);
    const symbol = type.getSymbol();
    return (
      symbol?.getName() === 'Promise' ||
      Boolean(checker.getPropertyOfType(type, 'then') && symbol?.getName() !== 'Object')
    );
  };
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || file.fileName.includes('node_modules')) continue;
    const visit = (node) => {
      if (ts.isExpressionStatement(node)) {
        let expression = node.expression;
        while (ts.isParenthesizedExpression(expression)) expression = expression.expression;
        const floating =
          (ts.isCallExpression(expression) || ts.isNewExpression(expression)) &&
          isPromise(checker.getTypeAtLocation(expression));
        if (floating) {
          const { line } = file.getLineAndCharacterOfPosition(node.getStart());
          console.log(
            `${relative(process.cwd(), file.fileName)}:${line + 1}: ${node.getText().split('\n')[0].slice(0, 100)}`,
          );
          failures++;
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
}
if (failures > 0) {
  console.log(
    `${failures} promise(s) left floating: await them, return them, or mark them \`void\` on purpose.`,
  );
  process.exit(1);
}
