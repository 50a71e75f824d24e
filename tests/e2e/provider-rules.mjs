// The mock's refusal of a schema a real provider would refuse: the request's schema goes through
// the core's own checkers of each family's published rules (`checkProviderSchema`, from
// core/src/provider_rules/, each rule with its source and date), and a schema that breaks one is
// answered 400 in that provider's own error shape. Also spells an answer the way a provider
// constrained by the sent schema would (maps as the `{key, value}` pairs a strict schema asks
// for), so the app's turning them back is tested on the wire.
//
// Error bodies (read 2026-11-26):
// - OpenAI: https://platform.openai.com/docs/guides/error-codes — `{error: {message, type, param,
//   code}}`, `type: "invalid_request_error"` for a bad request; OpenRouter, Groq, Mistral's chat
//   completions and llama.cpp's server answer in the same shape.
// - Anthropic: https://docs.claude.com/en/api/errors — `{type: "error", error: {type:
//   "invalid_request_error", message}}`.
// - Gemini: https://ai.google.dev/gemini-api/docs/troubleshooting — `{error: {code: 400, message,
//   status: "INVALID_ARGUMENT"}}`.
// - Ollama: https://github.com/ollama/ollama/blob/main/docs/api.md — `{error: "message"}`.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// Built by scripts/build-core-pkg.sh node (scripts/test-e2e.sh runs it first).
const core = createRequire(import.meta.url)(path.join(root, 'core-js', 'pkg-node'));

/** The schema a request asks a provider to enforce, and the family whose rules judge it; none
 * for a request without one, or one the provider only follows loosely (Groq's `strict: false`,
 * Anthropic's forced tool call before structured outputs). */
function enforced(provider, body) {
  const format = body?.response_format;
  if (format?.type === 'json_schema') {
    if (provider === 'local') return { family: 'grammar', schema: format.json_schema?.schema };
    if (format.json_schema?.strict !== true) return null;
    return { family: 'openai_strict', schema: format.json_schema?.schema };
  }
  if (body?.output_config?.format?.schema) return { family: 'anthropic', schema: body.output_config.format.schema };
  if (body?.generationConfig?.responseJsonSchema) return { family: 'gemini', schema: body.generationConfig.responseJsonSchema };
  if (provider === 'ollama' && body?.format && typeof body.format === 'object') return { family: 'grammar', schema: body.format };
  return null;
}

/** The 400 a provider answers for `message`, in its own shape. */
function errorBody(provider, message) {
  switch (provider) {
    case 'anthropic': return { type: 'error', error: { type: 'invalid_request_error', message } };
    case 'gemini': return { error: { code: 400, message, status: 'INVALID_ARGUMENT' } };
    case 'ollama': return { error: message };
    default: return { error: { message, type: 'invalid_request_error', param: 'response_format', code: null } };
  }
}

/**
 * The mock's reply `{status: 400, body}` when the request's schema breaks a published rule of its
 * provider's family (the breaks listed in the message, as the real APIs list the first), else
 * undefined.
 */
export function schemaRefusal(provider, body) {
  const sent = enforced(provider, body);
  if (!sent?.schema) return undefined;
  const breaks = core.checkProviderSchema(sent.family, sent.schema);
  if (breaks.length === 0) return undefined;
  const said = breaks.map((b) => `${b.at || '(root)'}: ${b.message}`).join('; ');
  return { status: 400, body: errorBody(provider, `Invalid schema: ${said}`), breaks };
}

/** Resolves a local `$ref` of `root`. */
const resolve = (root, node) => (node?.$ref ? root.$defs?.[node.$ref.replace('#/$defs/', '')] : node);

/** Whether `node` asks for a list of `{key, value}` pairs (a map in a strict family's form). */
function isPairs(node) {
  const props = node?.items?.properties;
  return props && Object.keys(props).sort().join() === 'key,value';
}

/** `value` as a provider bound by `node` would write it: maps as pair lists where asked. */
function spell(root, node, value) {
  node = resolve(root, node);
  if (!node || value === null || typeof value !== 'object') return value;
  if (!Array.isArray(value) && isPairs(node)) {
    return Object.entries(value).map(([key, v]) => ({ key, value: spell(root, node.items.properties.value, v) }));
  }
  let out = value;
  for (const branch of node.anyOf ?? []) out = spell(root, branch, out);
  if (Array.isArray(out)) return out.map((v) => spell(root, node.items, v));
  if (node.properties) {
    out = { ...out };
    for (const [k, sub] of Object.entries(node.properties)) if (k in out) out[k] = spell(root, sub, out[k]);
  }
  return out;
}

/** The answer `text` in the shape the request's schema asks for (unchanged when it asks for
 * none, or the text is not JSON). */
export function answerAsSent(provider, body, text) {
  const sent = enforced(provider, body);
  if (!sent?.schema || typeof text !== 'string') return text;
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  const spelled = JSON.stringify(spell(sent.schema, sent.schema, parsed));
  return spelled === JSON.stringify(parsed) ? text : spelled;
}
