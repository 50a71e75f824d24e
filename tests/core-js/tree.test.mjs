// newTree / applyTreeOperations / knownFromTree through the built Node package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { core } from './load.mjs';

const live = (tree) => tree.products.filter((p) => p.status !== 'removed');
const byName = (tree, name) => tree.products.find((p) => p.name === name);

/** A tree with p1 "Brief" and p2 "Plan" under the root, and p3 "Budget" under p2. */
function sample() {
  const r = core.applyTreeOperations(core.newTree('Launch'), [
    { action: 'ADD', newId: 'new-1', parentId: 'p0', product: { name: 'Brief', type: 'Content', dod: 'One page.' } },
    { action: 'ADD', newId: 'new-2', parentId: 'p0', product: { name: 'Plan', type: 'Collection', dod: 'All parts.' } },
    {
      action: 'ADD',
      newId: 'new-3',
      parentId: 'new-2',
      product: { name: 'Budget', type: 'Decision', dod: 'Signed off.', assignee: 'operative-1' },
    },
  ]);
  assert.equal(r.ok, true, JSON.stringify(r.errors));
  return r;
}

test('newTree holds only the root p0, named as asked', () => {
  const tree = core.newTree('Launch plan');
  assert.equal(tree.products.length, 1);
  assert.equal(tree.products[0].id, 'p0');
  assert.equal(tree.products[0].name, 'Launch plan');
  assert.equal(tree.products[0].parent, null);
  assert.deepEqual(tree.versions, []);
  assert.deepEqual(tree.collabs, []);
});

test('ADD gives stable ids in order, new-N may be a later parent, newIds maps them', () => {
  const { tree, newIds } = sample();
  assert.deepEqual(newIds, { 'new-1': 'p1', 'new-2': 'p2', 'new-3': 'p3' });
  assert.equal(byName(tree, 'Budget').id, 'p3');
  assert.equal(byName(tree, 'Budget').parent, 'p2');
  assert.equal(byName(tree, 'Budget').assignee, 'operative-1');
});

test('MOVE, UPDATE with assignee null, REMOVE keeps history', () => {
  const { tree } = sample();
  const r = core.applyTreeOperations(tree, [
    { action: 'MOVE', productId: 'p3', parentId: 'p1' },
    { action: 'UPDATE', productId: 'p3', product: { assignee: null, name: 'Costs' } },
    { action: 'REMOVE', productId: 'p2', reason: 'merged into the brief' },
  ]);
  assert.equal(r.ok, true, JSON.stringify(r.errors));
  const costs = r.tree.products.find((p) => p.id === 'p3');
  assert.equal(costs.parent, 'p1');
  assert.equal(costs.name, 'Costs');
  assert.equal(costs.assignee, null);
  assert.equal(r.tree.products.length, 4, 'a removed product stays in the tree data');
  assert.deepEqual(live(r.tree).map((p) => p.id), ['p0', 'p1', 'p3']);
  assert.deepEqual(r.newIds, {});
});

test('a failing list changes nothing and names the operation and why', () => {
  const { tree } = sample();
  const before = JSON.stringify(tree);
  const r = core.applyTreeOperations(tree, [
    { action: 'UPDATE', productId: 'p1', product: { name: 'Renamed' } },
    { action: 'MOVE', productId: 'p2', parentId: 'p3' }, // under its own child
  ]);
  assert.equal(r.ok, false);
  assert.equal(r.tree, undefined);
  assert.equal(r.errors.length, 1);
  assert.equal(r.errors[0].index, 1);
  assert.equal(r.errors[0].path, '/1');
  assert.equal(r.errors[0].action, 'MOVE');
  assert.match(r.errors[0].message, /p2 cannot move under p3/);
  assert.equal(JSON.stringify(tree), before, 'the input tree is not mutated');
});

test('duplicate sibling names and unknown products are refused', () => {
  const { tree } = sample();
  const dup = core.applyTreeOperations(tree, [
    { action: 'ADD', newId: 'new-1', parentId: 'p0', product: { name: 'brief ', type: 'Content', dod: 'x' } },
  ]);
  assert.equal(dup.ok, false);
  assert.match(dup.errors[0].message, /p0 already has a child p1 named "Brief"; "brief " reads as the same name/);
  const unknown = core.applyTreeOperations(tree, [{ action: 'REMOVE', productId: 'p9', reason: 'gone' }]);
  assert.equal(unknown.ok, false);
  assert.match(unknown.errors[0].message, /no product p9/);
});

test('malformed operations are reported with their index, all of them', () => {
  const r = core.applyTreeOperations(core.newTree('x'), [
    { action: 'ADD', newId: 'new-1', parentId: 'p0', product: { name: 'A', type: 'Content', dod: 'x' } },
    { action: 'MOVE', productId: 'p1' },
    { action: 'RENAME', productId: 'p1' },
  ]);
  assert.equal(r.ok, false);
  assert.deepEqual(r.errors.map((e) => [e.path, e.index, e.action]), [
    ['/1', 1, 'MOVE'],
    ['/2', 2, 'RENAME'],
  ]);
  assert.match(r.errors[0].message, /parentId/);
  assert.match(r.errors[1].message, /RENAME/);
});

test('a malformed tree or a non-array operations list throws', () => {
  assert.throws(() => core.applyTreeOperations({ products: 'no' }, []), /tree/);
  assert.throws(() => core.applyTreeOperations(core.newTree('x'), { action: 'ADD' }), /operations must be an array/);
});

test('knownFromTree lists live products, versions and collabs, for validateStep', () => {
  const { tree } = sample();
  const removed = core.applyTreeOperations(tree, [{ action: 'REMOVE', productId: 'p3', reason: 'cut' }]).tree;
  const known = core.knownFromTree(removed);
  assert.deepEqual(known.products, ['p0', 'p1', 'p2']);
  assert.deepEqual(known.versions, []);
  assert.deepEqual(known.collabs, []);
  assert.deepEqual(known.members, []);
});
