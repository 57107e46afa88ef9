/**
 * CodeExec (AGENTS.md §10.4): a Python or JavaScript `main` run in the server's sandbox (QuickJS /
 * Pyodide in worker threads: no network, no file system, no host process, time/memory/output
 * limits). Arguments come from the node's `arguments` references (a same-named call argument wins);
 * what `main` returns is spread over the declared outputs. Lectern runs the sandbox in-process
 * instead of RAGFlow's executor service, so `stderr` alone is not an error: only a raised exception
 * or a limit is.
 */
import type { ToolComponent, ToolMeta } from '@lectern/agent-core';
import { CodeExecError, mapCodeOutputs, normalizeLang, type DeclaredOutput } from '../sandbox/index.js';
import type { ToolDeps } from './context.js';
import { settled, text } from './common/values.js';

const DESCRIPTION = `This tool has a sandbox that can execute code written in 'Python'/'Javascript'. It receives a piece of code and returns a JSON string. The code MUST define a main function.
Python example:
def main(arg1: str, arg2: str) -> dict:
    return {"result": arg1 + arg2}
JavaScript example:
async function main(args) {
  const { arg1, arg2 } = args;
  return { result: arg1 + arg2 };
}
module.exports = { main };`;

const META: ToolMeta = {
  name: 'execute_code',
  description: DESCRIPTION,
  parameters: {
    lang: {
      type: 'string',
      description: 'The programming language of this piece of code.',
      enum: ['python', 'javascript'],
      required: true,
    },
    script: {
      type: 'string',
      description: 'A piece of code in right format. There MUST be main function.',
      required: true,
    },
  },
};

const DEFAULT_OUTPUTS: Record<string, DeclaredOutput> = { result: { value: '', type: 'object' } };

function declaredOutputs(params: Record<string, unknown>): Record<string, DeclaredOutput> {
  const o = params.outputs;
  if (o && typeof o === 'object' && !Array.isArray(o) && Object.keys(o).some((k) => !k.startsWith('_')))
    return o as Record<string, DeclaredOutput>;
  return DEFAULT_OUTPUTS;
}

export function codeExecTool(deps: ToolDeps): ToolComponent {
  return {
    componentName: 'CodeExec',
    meta: () => META,
    check(params) {
      const reasons: string[] = [];
      if (params.lang !== undefined && !normalizeLang(text(params.lang)))
        reasons.push(
          `\`lang\` must be one of python, python3, javascript, nodejs (got "${text(params.lang)}")`,
        );
      return reasons;
    },
    async invoke(call) {
      const langText = text(call.args.lang || call.params.lang || 'python');
      const lang = normalizeLang(langText);
      if (!lang) throw new Error(`Unsupported language: ${langText}.`);
      const script = text(call.args.script || call.params.script);
      if (!script.trim()) throw new Error('The script is empty.');
      const args: Record<string, unknown> = {};
      const refs = call.params.arguments;
      if (refs && typeof refs === 'object' && !Array.isArray(refs)) {
        for (const [name, ref] of Object.entries(refs as Record<string, unknown>)) {
          if (call.args[name]) args[name] = call.args[name];
          else args[name] = text(ref).trim() ? await settled(await call.resolve(text(ref))) : null;
        }
      }
      try {
        const run = await deps.runCode({
          lang,
          script,
          args,
          timeoutMs: deps.timeoutMs,
        });
        const outputs = mapCodeOutputs(run.result, declaredOutputs(call.params));
        for (const [k, v] of Object.entries(outputs)) call.setOutput(k, v);
        if (run.stdout) call.logger.debug('CodeExec printed', { stdout: run.stdout.slice(0, 2000) });
        return outputs;
      } catch (err) {
        if (err instanceof CodeExecError) throw new Error(err.message);
        throw err;
      }
    },
  };
}
