// Type-checked (never run) by tests/core-js/types.test.mjs with `tsc --noEmit --strict`, beside
// usage.ts: the dialectic's and the meeting's functions (core-js/src/dialectic.rs, meeting.rs).
// Each `@ts-expect-error` line must fail to type-check, or tsc reports the directive as unused.
import {
  checkJsonSchema,
  validateAgainstSchema,
  checkDialecticConfig,
  checkDialecticAnswer,
  dialecticDocument,
  checkMeetingDecision,
  checkMeetingContribution,
  checkMeetingMinutes,
  type DialecticConfig,
  type SchemaProblem,
  type Violation,
  type Phase,
} from 'roundtable-core';

const schema = checkJsonSchema('{"type": "object"}');
if (schema.ok) {
  const notes: SchemaProblem[] = schema.notes;
  void notes;
} else {
  const where: string = schema.problems[0].pointer;
  void where;
}
const checked = validateAgainstSchema({ type: 'string' }, '"x"');
if (!checked.ok) {
  const errors: Violation[] = checked.errors;
  void errors;
}

const member = { id: 'thesis', name: 'The Proponent', model: { provider: 'demo', model: 'demo-1' } };
const config: DialecticConfig = {
  query: 'Should we?',
  responseStyle: 'json',
  mode: 'workflow',
  thesis: member,
  synthesis: { ...member, id: 'synthesis' },
  critics: [{ ...member, id: 'logician' }],
  useCouncil: false,
  responseSchema: { type: 'object' },
};
const verdict = checkDialecticConfig(config);
if (!verdict.ok) {
  const pointer: string | undefined = verdict.errors[0].pointer;
  void pointer;
}
const answer = checkDialecticAnswer(config, 'synthesis', '{}');
if (answer.ok) void answer.answer.schema_version;
const doc: Record<string, unknown> = dialecticDocument(config, 'single_prompt');
void doc;
// @ts-expect-error: not one of 002's formats
dialecticDocument(config, 'yaml');
// @ts-expect-error: not a step of a dialectic
checkDialecticAnswer(config, 'prologue', '{}');
// @ts-expect-error: a style 002 does not name
const bad: DialecticConfig = { ...config, responseStyle: 'haiku' };
void bad;

const phase: Phase = 'Evaluation';
const decision = checkMeetingDecision('{}', { attendees: ['engineer-001'], phase, turnsUsed: 1, maxTurnsPerPhase: 4 });
if (decision.ok && decision.answer.decision === 'continue') {
  const next: string = decision.answer.next_agent_id;
  void next;
}
// @ts-expect-error: 001 has no such phase
checkMeetingDecision('{}', { attendees: [], phase: 'Retrospective' });
const contribution = checkMeetingContribution('{}');
if (contribution.ok) void contribution.answer.contribution.length;
const minutes = checkMeetingMinutes('{}', ['engineer-001']);
if (minutes.ok) void minutes.answer.action_items.length;
