// Type-checked (never run) by tests/core-js/types.test.mjs with `tsc --noEmit --strict`: proves the
// declarations of core-js/pkg-node (hand-written API, generated answer shapes) are precise. Each `@ts-expect-error` line must fail to
// type-check, or tsc reports the directive as unused.
import {
  autocodingAdvance,
  autocodingInit,
  autocodingLoad,
  hegelion,
  playerPrompt,
  type AutocodingError,
  type AutocodingPhase,
  type AutocodingState,
  validateStep,
  stepSchema,
  stepNames,
  newTree,
  applyTreeOperations,
  knownFromTree,
  type StepName,
  type Violation,
  type PlanAssignOutput,
  type ProductTree,
  type Answers,
  type FinalOutputs,
  type MeetingDecision,
  type MeetingMinutes,
} from 'roundtable-core';

const raw: string = '{}';

// With value (the default): the value is typed by step.
const r = validateStep('plan_assign', raw, { products: ['p0'] });
if (r.ok) {
  const v = r.value;
  if (v.responseType === 'final_output') {
    const ops: PlanAssignOutput['treeOperations'] = v.treeOperations;
    for (const op of ops) {
      if (op.action === 'ADD') {
        const name: string = op.product.name;
        void name;
      }
    }
    // @ts-expect-error plan_assign has no `versions`
    void v.versions;
  } else if (v.responseType === 'halt') {
    const message: string = v.halt.message;
    void message;
  } else {
    const need: 'full_content' | 'version_history' | 'all_feedback' | 'peer_content' = v.contextRequests[0].need;
    void need;
  }
  const w: Violation[] = r.warnings;
  void w;
} else {
  const first: Violation = r.errors[0];
  const prompt: string = r.repairPrompt;
  void first, prompt;
}

// Write may not halt: the halt branch does not exist in its value type.
const w = validateStep('write', raw);
if (w.ok && w.value.responseType === 'final_output') {
  const content: string = w.value.versions[0].newVersion.content;
  void content;
}
if (w.ok) {
  // @ts-expect-error no halt on the Write step
  void (w.value.responseType === 'halt');
}

// Verdict only: no value.
const verdict = validateStep('write', raw, null, { value: false });
if (verdict.ok) {
  // @ts-expect-error the verdict-only result has no value
  void verdict.value;
}

// @ts-expect-error not a step name
validateStep('planAssign', raw);
// @ts-expect-error known lists are string arrays
validateStep('write', raw, { products: [1] });
// @ts-expect-error unknown option
validateStep('write', raw, null, { fast: true });

const s: Record<string, unknown> = stepSchema('inspection', { strict: true });
const names: StepName[] = stepNames();
void s, names;

const tree: ProductTree = newTree('Root');
const applied = applyTreeOperations(tree, [
  { action: 'ADD', newId: 'new-1', parentId: 'p0', product: { name: 'A', type: 'Content', dod: 'x' } },
  { action: 'UPDATE', productId: 'p1', product: { assignee: null } },
]);
if (applied.ok) {
  const id: string | undefined = applied.newIds['new-1'];
  const status: 'pending' | 'in_progress' | 'accepted' | 'removed' = applied.tree.products[0].status;
  void id, status;
} else {
  const index: number | null = applied.errors[0].index;
  void index;
}
// @ts-expect-error REMOVE needs a reason
applyTreeOperations(tree, [{ action: 'REMOVE', productId: 'p1' }]);
// @ts-expect-error product type is an enum
applyTreeOperations(tree, [{ action: 'ADD', newId: 'new-1', parentId: 'p0', product: { name: 'A', type: 'Doc', dod: 'x' } }]);

const known: string[] = knownFromTree(tree).products;
void known;

// Every kind's answer shapes are declared (generated from core/schemas by core-js/src/ts_types.rs).
const decision: Answers['meeting_decision'] = { decision: 'change_phase', new_phase: 'Evaluation', rationale: 'Options are on the table.' };
const minutes: MeetingMinutes = { summary: 'We met.', decisions: [], action_items: [{ owner: 'user-1', task: 'Book it' }], open_questions: [] };
void decision, minutes;
// @ts-expect-error not one of the seven phases
const badPhase: MeetingDecision = { decision: 'change_phase', new_phase: 'Voting', rationale: 'x' };
// @ts-expect-error rationale is required
const noRationale: MeetingDecision = { decision: 'continue', next_agent_id: 'a' };
void badPhase, noRationale;
const out: FinalOutputs['write'] = { versions: [], collabs: [], remarks: [] };
void out;

// Autocoding (spec 002): state in, prompt or next state out; an error object is told apart by `error`.
const started = autocodingInit({ requirements: '- add(a, b) returns the sum', max_turns: 3 }, 'id-1');
if (!('error' in started)) {
  const phase: AutocodingPhase = started.phase;
  const turn = playerPrompt({ state: started, files: [{ path: 'a.js', content: 'module.exports = 1;' }] });
  if (!('error' in turn)) {
    const next: AutocodingState | AutocodingError = autocodingAdvance({
      state: turn.state,
      coach_feedback: 'Missing tests.',
      approved: false,
      compliance_score: 0.4,
    });
    void next;
  }
  void phase;
  // @ts-expect-error approved must be a boolean
  autocodingAdvance({ state: started, coach_feedback: 'x', approved: 'yes' });
  // @ts-expect-error not a phase of spec 002
  const wrong: AutocodingPhase = 'review';
  void wrong;
}
const loaded = autocodingLoad('{}');
if (!('error' in loaded)) {
  const state: AutocodingState = loaded.state;
  const where: string[] = loaded.warnings.map((w) => w.path);
  void state, where;
} else {
  const at: string = loaded.pointer;
  void at;
}
const entry = hegelion({ requirements: '- add(a, b)', mode: 'init' }, 'id-2');
if (!('error' in entry) && entry.mode === 'init') {
  const turn0: number = entry.current_turn;
  void turn0;
}
// @ts-expect-error not a mode of the hegelion entry point
hegelion({ requirements: 'r', mode: 'chat' }, 'id-3');
