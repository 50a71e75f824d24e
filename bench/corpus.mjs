// The benchmark corpus: for every step, a small and a ~20 KB answer, each valid and invalid.
//
// Generated deterministically (a fixed-seed LCG over a word list), so every run and every machine
// measures the same bytes. The text looks like what models send: Markdown with newlines, quotes,
// a few non-ASCII characters, ids such as p3 / v7 / operative-2. Invalid answers carry several
// violations spread through the answer (the last one near the end, so no validator can stop early
// and look fast): an enum value that does not exist, a number out of range, a string over its
// limit, a missing required field.

const WORDS = (
  'the team plan product version review scope chair operative inspector envoy draft outline ' +
  'section market budget risk timeline metric user onboarding flow pricing tier launch goal ' +
  'evidence source summary change feedback decision criteria acceptance content structure ' +
  'clarity tone audience channel campaign analysis data result next step owner deadline ' +
  'dependency assumption constraint objective mission persona domain area responsibility'
).split(' ');
const EXTRA = ['café', 'naïve', '—', '“quoted”', 'déjà vu', '→', '"inline"', '`code`', '50%', '(see p2)'];

/** A deterministic pseudo-random source (numerical recipes LCG). */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `n` words of plausible prose; `md` adds Markdown structure (headings, bullets, newlines). */
export function prose(rand, n, md = false) {
  const out = [];
  for (let i = 0; i < n; i++) {
    let w = rand() < 0.06 ? EXTRA[Math.floor(rand() * EXTRA.length)] : WORDS[Math.floor(rand() * WORDS.length)];
    if (i === 0) w = w[0].toUpperCase() + w.slice(1);
    out.push(w);
    if (md && rand() < 0.04) out.push('\n\n## ' + WORDS[Math.floor(rand() * WORDS.length)] + '\n\n-');
    else if (rand() < 0.08) out[out.length - 1] += rand() < 0.5 ? '.' : ',';
  }
  return out.join(' ') + '.';
}

/** Text of at most `max` chars (a spec limit), cut on a word. */
function upTo(rand, words, max) {
  const t = prose(rand, words);
  return t.length <= max ? t : t.slice(0, t.lastIndexOf(' ', max - 1)) + '.';
}

const collab = (rand, i) => ({
  refersToProduct: `p${1 + (i % 4)}`,
  type: ['feedback', 'question', 'suggestion', 'endorsement', 'concern'][i % 5],
  importance: 1 + (i % 10),
  comment: prose(rand, 30),
  shortestSummary: upTo(rand, 10, 120),
  refersToVersion: `v${1 + (i % 3)}`,
});
const remark = (rand, i) => ({
  recipients: [['user-1'], ['chair'], ['team'], ['operative-1']][i % 4],
  type: ['question', 'suggestion', 'observation', 'note', 'missing_detail', 'blocker', 'comment'][i % 7],
  content: prose(rand, 25),
});

/** Builders of a valid final output per step; `k` scales the answer. */
const BUILD = {
  bootstrap(rand, k) {
    const personas = { chair: prose(rand, 20) };
    const operativeDomains = {};
    for (let i = 1; i <= 3 * k; i++) {
      personas[`operative-${i}`] = upTo(rand, 20, 500);
      operativeDomains[`operative-${i}`] = { responsibility: upTo(rand, 15, 500), area: upTo(rand, 3, 100) };
    }
    const initialProducts = [];
    for (let i = 0; i < 3 * k; i++) {
      initialProducts.push({
        name: `${upTo(rand, 4, 150)} ${i + 1}`,
        type: ['Content', 'Decision', 'Collection', 'Orchestration'][i % 4],
        dod: upTo(rand, 30, 1000),
        owner: i % 3 === 2 ? null : `operative-${1 + (i % (3 * k))}`,
      });
    }
    return {
      responseType: 'final_output',
      thinking: { interpretation: prose(rand, 40), scopeDecisions: prose(rand, 30) },
      mission: upTo(rand, 40, 2000),
      objectives: prose(rand, 30),
      constraints: prose(rand, 20),
      personas,
      operativeDomains,
      initialProducts,
      missingDetails: [prose(rand, 8)],
    };
  },
  reflect(rand, k) {
    const reflections = [];
    for (let i = 0; i < 2 * k; i++) {
      reflections.push({
        refersToProduct: `p${1 + i}`,
        dodStatus: ['met', 'partially_met', 'not_met'][i % 3],
        dodGaps: [prose(rand, 8)],
        feedbackResponses: [0, 1].map((j) => ({
          collabId: `c${1 + 2 * i + j}`,
          action: ['accept', 'defer', 'reject'][(i + j) % 3],
          rationale: prose(rand, 20),
          plannedChange: prose(rand, 10),
        })),
        nextVersionDelta: prose(rand, 25),
      });
    }
    return {
      responseType: 'final_output',
      reflections,
      collabs: Array.from({ length: k }, (_, i) => collab(rand, i)),
      remarks: [remark(rand, 0)],
    };
  },
  plan_assign(rand, k) {
    const treeOperations = [];
    const assignments = [];
    for (let i = 1; i <= 2 * k; i++) {
      treeOperations.push({
        action: 'ADD',
        newId: `new-${i}`,
        parentId: i % 3 === 0 ? `new-${i - 1}` : 'p0',
        product: {
          name: `${upTo(rand, 4, 150)} ${i}`,
          type: ['Content', 'Decision', 'Collection', 'Orchestration'][i % 4],
          dod: upTo(rand, 25, 1000),
          description: prose(rand, 15),
          assignee: `operative-${1 + (i % 3)}`,
        },
        reason: prose(rand, 10),
      });
      assignments.push({
        productId: `new-${i}`,
        assignee: `operative-${1 + (i % 3)}`,
        directive: { objective: prose(rand, 20), dod: prose(rand, 15), why: prose(rand, 12), context: prose(rand, 10) },
        attachedContext: [{ productId: 'p1', include: ['content', 'feedback'], reason: prose(rand, 8) }],
      });
    }
    treeOperations.push(
      { action: 'MOVE', productId: 'p2', parentId: 'p1', reason: prose(rand, 6) },
      { action: 'UPDATE', productId: 'p3', product: { assignee: null, dod: prose(rand, 10) } },
      { action: 'REMOVE', productId: 'p4', reason: prose(rand, 6) },
    );
    return {
      responseType: 'final_output',
      thinking: { roundStrategy: prose(rand, 40), acceptanceRationale: prose(rand, 25) },
      treeOperations,
      assignments,
      acceptance: [
        { productId: 'p1', accepted: true, versionId: 'v2' },
        { productId: 'p2', accepted: false, rejectionReason: prose(rand, 12) },
      ],
      remarks: [remark(rand, 1)],
    };
  },
  write(rand, k) {
    return {
      responseType: 'final_output',
      versions: [
        {
          productId: 'p1',
          newVersion: {
            contentTitle: upTo(rand, 8, 200),
            content: '# ' + prose(rand, 6) + '\n\n' + prose(rand, 60 * k, true),
            changeSummary: prose(rand, 20),
          },
        },
      ],
      collabs: [collab(rand, 2)],
      remarks: [],
    };
  },
  peer_review(rand, k) {
    return {
      responseType: 'final_output',
      reviews: Array.from({ length: 2 * k }, (_, i) => ({
        productId: `p${1 + i}`,
        versionId: `v${1 + i}`,
        assessment: i % 2 ? 'approved' : 'needs_revision',
        summary: prose(rand, 40),
      })),
      collabs: Array.from({ length: k }, (_, i) => collab(rand, i)),
      remarks: [],
    };
  },
  inspection(rand, k) {
    return {
      responseType: 'final_output',
      inspections: Array.from({ length: k }, (_, i) => ({
        productId: `p${1 + i}`,
        versionId: `v${1 + i}`,
        assessment: ['approved', 'needs_revision', 'blocked'][i % 3],
        findings: Array.from({ length: 3 }, (_, j) => ({
          category: ['security', 'completeness', 'coherence', 'integration', 'quality'][(i + j) % 5],
          severity: 1 + ((i * 3 + j) % 10),
          issue: prose(rand, 25),
          recommendation: prose(rand, 20),
          dodCriterion: prose(rand, 6),
        })),
      })),
      collabs: [collab(rand, 0)],
      remarks: [remark(rand, 3)],
    };
  },
  presentation(rand, k) {
    return {
      responseType: 'final_output',
      messages: Array.from({ length: Math.min(10, 2 * k) }, (_, i) => ({
        content: prose(rand, Math.max(20, 30 * k), true),
        asAgent: ['envoy', 'chair', 'operative-1'][i % 3],
      })),
    };
  },
};

/** Breaks a valid answer in several places (the last one as late in the text as possible). */
const BREAK = {
  bootstrap(a) {
    a.initialProducts[0].type = 'Document';
    delete a.thinking.scopeDecisions;
    a.initialProducts.at(-1).name = 'x'.repeat(201);
  },
  reflect(a) {
    a.reflections[0].dodStatus = 'mostly_met';
    a.collabs.at(-1).importance = 11;
    a.remarks.at(-1).type = 'rant';
  },
  plan_assign(a) {
    a.treeOperations[0].action = 'CREATE';
    a.assignments.at(-1).directive.why = 42;
    a.acceptance.at(-1).accepted = 'no';
    delete a.remarks.at(-1).content;
  },
  write(a) {
    a.versions[0].newVersion.contentTitle = 'T'.repeat(201);
    a.collabs.at(-1).importance = 0;
    a.collabs.at(-1).shortestSummary = 's'.repeat(121);
  },
  peer_review(a) {
    a.reviews[0].assessment = 'rejected';
    a.collabs.at(-1).type = 'praise';
  },
  inspection(a) {
    a.inspections[0].findings[0].severity = 12;
    a.inspections.at(-1).findings.at(-1).category = 'style';
    delete a.remarks.at(-1).recipients;
  },
  presentation(a) {
    a.messages.at(-1).asAgent = 7;
    delete a.messages[0].content;
  },
};

export const STEPS = Object.keys(BUILD);

/** Grows `k` until the answer is at least `bytes` long as pretty-printed JSON. */
function sized(step, seed, bytes) {
  let k = 1;
  for (;;) {
    const a = BUILD[step](rng(seed), k);
    if (JSON.stringify(a, null, 2).length >= bytes || k > 400) return { k, a };
    k++;
  }
}

/**
 * The corpus: { name, step, size: 'small' | '20KB', valid, raw } for every step × size × validity.
 * The `raw` text is what a model would send: compact JSON for small answers, pretty-printed
 * (2 spaces, as most models write it) for the large ones.
 */
export function corpus() {
  const cases = [];
  STEPS.forEach((step, si) => {
    for (const size of ['small', '20KB']) {
      const seed = 1000 + si * 10 + (size === 'small' ? 0 : 1);
      const { k } = size === 'small' ? { k: 1 } : sized(step, seed, 20_000);
      const indent = size === 'small' ? undefined : 2;
      for (const valid of [true, false]) {
        const a = BUILD[step](rng(seed), k);
        if (!valid) BREAK[step](a);
        const raw = JSON.stringify(a, null, indent);
        cases.push({ name: `${step}/${size}/${valid ? 'valid' : 'invalid'}`, step, size, valid, raw });
      }
    }
  });
  return cases;
}
