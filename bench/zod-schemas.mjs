// Zod schemas for every step's answer (spec 000), written by hand for the benchmark: the same
// fields, enums, limits, counts and ranges as the Rust validator checks without `known`, so that
// the comparison is like for like. Optional fields are `.nullish()` (the Rust `Option` fields take
// absent or null), default lists `.default([])` (zod fills them, as validateStep's value does),
// unknown keys are stripped (the validator warns about them).
import { z } from 'zod';

const text = (max) => z.string().max(max);
const productType = z.enum(['Content', 'Decision', 'Collection', 'Orchestration']);
const scale = z.number().int().min(1).max(10);
const ids = z.array(z.string());

const contextRequest = z.object({
  productId: z.string(),
  need: z.enum(['full_content', 'version_history', 'all_feedback', 'peer_content']),
  reason: text(500),
});
const requestContext = z.object({
  responseType: z.literal('request_context'),
  contextRequests: z.array(contextRequest).min(1).max(5),
});
const halt = z.object({
  responseType: z.literal('halt'),
  halt: z.object({
    type: z.enum(['question', 'done']),
    to: ids,
    message: text(2000),
    options: ids.nullish(),
  }),
});

const collab = z.object({
  refersToProduct: z.string(),
  type: z.enum(['feedback', 'question', 'suggestion', 'endorsement', 'concern']),
  importance: scale,
  comment: text(5000),
  shortestSummary: text(120),
  refersToVersion: z.string().nullish(),
  referencesProductIds: ids.nullish(),
  addresseeIds: ids.nullish(),
  respondingToCollabIds: ids.nullish(),
});
const remark = z.object({
  recipients: ids,
  type: z.enum(['question', 'suggestion', 'observation', 'note', 'missing_detail', 'blocker', 'comment']),
  content: text(2000),
  isBlocker: z.boolean().nullish(),
});
const collabs = z.array(collab).default([]);
const remarks = z.array(remark).default([]);

const treeOperation = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('ADD'),
    newId: z.string().regex(/^new-[0-9]+$/),
    parentId: z.string(),
    product: z.object({
      name: text(200),
      type: productType,
      dod: text(1000),
      description: z.string().nullish(),
      assignee: z.string().nullish(),
    }),
    reason: z.string().nullish(),
  }),
  z.object({ action: z.literal('REMOVE'), productId: z.string(), reason: z.string() }),
  z.object({ action: z.literal('MOVE'), productId: z.string(), parentId: z.string(), reason: z.string().nullish() }),
  z.object({
    action: z.literal('UPDATE'),
    productId: z.string(),
    product: z.object({
      name: text(200).nullish(),
      type: productType.nullish(),
      dod: text(1000).nullish(),
      description: z.string().nullish(),
      assignee: z.string().nullish(),
    }),
    reason: z.string().nullish(),
  }),
]);

/** Write content: at least 50 chars of plain text, never a JSON document. */
const content = z
  .string()
  .min(50)
  .refine((s) => {
    const t = s.trim();
    if (t[0] !== '{' && t[0] !== '[') return true;
    try {
      JSON.parse(t);
      return false;
    } catch {
      return true;
    }
  }, 'content must be plain text, not JSON');

const FINAL = {
  bootstrap: z.object({
    thinking: z.object({ interpretation: z.string(), scopeDecisions: z.string() }),
    mission: text(2000),
    objectives: z.string(),
    constraints: z.string(),
    personas: z.record(z.string(), z.string()),
    operativeDomains: z.record(z.string(), z.object({ responsibility: z.string(), area: z.string() })),
    initialProducts: z.array(
      z.object({ name: text(200), type: productType, dod: z.string(), owner: z.string().nullable() }),
    ),
    missingDetails: ids.nullish(),
  }),
  reflect: z.object({
    reflections: z.array(
      z.object({
        refersToProduct: z.string(),
        dodStatus: z.enum(['met', 'partially_met', 'not_met']),
        dodGaps: ids.nullish(),
        feedbackResponses: z.array(
          z.object({
            collabId: z.string(),
            action: z.enum(['accept', 'defer', 'reject']),
            rationale: z.string(),
            plannedChange: z.string().nullish(),
          }),
        ),
        nextVersionDelta: z.string(),
        blockers: ids.nullish(),
      }),
    ),
    collabs,
    remarks,
  }),
  plan_assign: z.object({
    thinking: z.object({ roundStrategy: z.string(), acceptanceRationale: z.string() }),
    treeOperations: z.array(treeOperation).default([]),
    assignments: z
      .array(
        z.object({
          productId: z.string(),
          assignee: z.string(),
          directive: z.object({ objective: z.string(), dod: z.string(), why: z.string(), context: z.string().nullish() }),
          attachedContext: z
            .array(z.object({ productId: z.string(), include: z.array(z.enum(['content', 'feedback'])), reason: z.string() }))
            .nullish(),
        }),
      )
      .default([]),
    acceptance: z
      .array(
        z.object({
          productId: z.string(),
          accepted: z.boolean(),
          versionId: z.string().nullish(),
          rejectionReason: z.string().nullish(),
        }),
      )
      .default([]),
    chairVersions: z.array(z.object({ productId: z.string(), content: z.string(), changeSummary: z.string() })).nullish(),
    remarks,
    bootstrapOverrides: z
      .object({
        mission: text(2000).nullish(),
        objectives: text(1000).nullish(),
        personas: z.record(z.string(), text(500)).nullish(),
        operativeDomains: z
          .record(z.string(), z.object({ responsibility: text(500).nullish(), area: text(100).nullish() }))
          .nullish(),
      })
      .nullish(),
  }),
  write: z.object({
    versions: z
      .array(
        z.object({
          productId: z.string(),
          newVersion: z.object({ contentTitle: text(200), content, changeSummary: z.string() }),
        }),
      )
      .default([]),
    collabs,
    remarks,
  }),
  peer_review: z.object({
    reviews: z.array(
      z.object({
        productId: z.string(),
        versionId: z.string(),
        assessment: z.enum(['approved', 'needs_revision']),
        summary: z.string(),
      }),
    ),
    collabs,
    remarks,
  }),
  inspection: z.object({
    inspections: z.array(
      z.object({
        productId: z.string(),
        versionId: z.string(),
        assessment: z.enum(['approved', 'needs_revision', 'blocked']),
        findings: z.array(
          z.object({
            category: z.enum(['security', 'completeness', 'coherence', 'integration', 'quality']),
            severity: scale,
            issue: z.string(),
            recommendation: z.string(),
            dodCriterion: z.string().nullish(),
          }),
        ),
      }),
    ),
    collabs,
    remarks,
  }),
  presentation: z.object({
    messages: z.array(z.object({ content: z.string(), asAgent: z.string() })).min(1).max(10),
  }),
};

const HALTS = new Set(['bootstrap', 'plan_assign']);

/** The zod schema of each step's answer, by wire name. */
export const zodSchemas = Object.fromEntries(
  Object.entries(FINAL).map(([step, final]) => {
    const branches = [requestContext, final.extend({ responseType: z.literal('final_output') })];
    if (HALTS.has(step)) branches.push(halt);
    return [step, z.discriminatedUnion('responseType', branches)];
  }),
);
