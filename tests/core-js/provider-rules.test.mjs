// The loopback mock's schema refusal (tests/e2e/provider-rules.mjs) through the built Node
// package: each provider's 400 in its own error shape, for the rules the issue found broken, and
// nothing refused that the rules allow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { core } from './load.mjs';
import { schemaRefusal, answerAsSent } from '../e2e/provider-rules.mjs';

const map = {
  type: 'object', additionalProperties: false, required: ['personas'],
  properties: { personas: { type: 'object', additionalProperties: { type: 'string' } } },
};

test('a map is refused by OpenAI and Anthropic, each in its own error shape', () => {
  const openai = schemaRefusal('openai', { response_format: { type: 'json_schema', json_schema: { name: 'a', strict: true, schema: map } } });
  assert.equal(openai.status, 400);
  assert.equal(openai.body.error.type, 'invalid_request_error');
  assert.equal(openai.body.error.param, 'response_format');
  assert.match(openai.body.error.message, /\/properties\/personas: `additionalProperties: false`/);
  const anthropic = schemaRefusal('anthropic', { output_config: { format: { type: 'json_schema', schema: map } } });
  assert.equal(anthropic.body.type, 'error');
  assert.equal(anthropic.body.error.type, 'invalid_request_error');
  assert.match(anthropic.body.error.message, /personas/);
});

test('Gemini refuses int64 and null in an enum; grammars refuse a 100,000 repetition', () => {
  const schema = { type: 'object', properties: { n: { type: 'integer', format: 'int64' }, v: { type: ['string', 'null'], enum: ['v1', null] } } };
  const gemini = schemaRefusal('gemini', { generationConfig: { responseJsonSchema: schema } });
  assert.deepEqual(Object.keys(gemini.body.error).sort(), ['code', 'message', 'status']);
  assert.equal(gemini.body.error.status, 'INVALID_ARGUMENT');
  assert.match(gemini.body.error.message, /int64/);
  assert.match(gemini.body.error.message, /only strings and numbers/);
  const long = { type: 'object', properties: { content: { type: 'string', maxLength: 100000 } } };
  const ollama = schemaRefusal('ollama', { format: long });
  assert.equal(typeof ollama.body.error, 'string');
  assert.match(ollama.body.error, /100000/);
  assert.ok(schemaRefusal('local', { response_format: { type: 'json_schema', json_schema: { strict: true, schema: long } } }));
});

test('what the rules allow goes through: the strict flavour, no schema, a loose Groq schema', () => {
  for (const step of core.stepNames()) {
    const { $schema, ...schema } = core.stepSchema(step, { strict: true });
    assert.equal(schemaRefusal('openai', { response_format: { type: 'json_schema', json_schema: { strict: true, schema } } }), undefined, step);
  }
  assert.equal(schemaRefusal('openai', { response_format: { type: 'json_object' } }), undefined);
  assert.equal(schemaRefusal('groq', { response_format: { type: 'json_schema', json_schema: { strict: false, schema: map } } }), undefined);
});

test('an answer is spelled as the sent schema asks: maps as pairs under a strict form', () => {
  const { $schema, ...schema } = core.stepSchema('bootstrap', { strict: true });
  const body = { response_format: { type: 'json_schema', json_schema: { strict: true, schema } } };
  const text = JSON.stringify({ responseType: 'final_output', personas: { 'chair-1': 'Leads.' } });
  const sent = JSON.parse(answerAsSent('openai', body, text));
  assert.deepEqual(sent.personas, [{ key: 'chair-1', value: 'Leads.' }]);
  assert.equal(JSON.parse(core.plainAnswer('bootstrap', JSON.stringify(sent))).personas['chair-1'], 'Leads.');
  assert.equal(answerAsSent('gemini', {}, text), text);
  assert.equal(answerAsSent('openai', body, 'not json'), 'not json');
});
