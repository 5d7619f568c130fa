/** The SFT filter "debugger observations that did not inform the edit" on hand-built steps (no services): where the
 * debugger stands, which reads cover which changed names, and both branches of the filter. */
import { changedLines, changedNames } from '../common/edit-diff';
import { selectTrajectories } from '../common/sft-corpus';
import { pausedFile, readCovers, rejections, REJECTION_REASONS, SftFilterConfig, uninformedDebuggerUse, type FilterStep } from '../common/sft-filters';
import { TOOL_INFO, type ToolName } from '../harness/tools';

const step = (name: ToolName, args: Record<string, unknown> = {}, output = 'ok', ok = true): FilterStep => ({ name, arguments: args, ok, output, debugger: TOOL_INFO[name].debugger });
const cfg = SftFilterConfig.parse({});
const reason = (steps: FilterStep[], over: object = {}) => uninformedDebuggerUse(steps, SftFilterConfig.parse(over))?.reason ?? null;

// The bug: `total = price * qty` should add the shipping. The edit changes `total`, `price`, `qty`.
const EDIT = step('edit_file', { path: 'cart.py', old_text: '    total = price * qty\n    return total', new_text: '    total = price * qty + shipping\n    return total' });
const BEFORE: FilterStep[] = [
  step('run_tests', {}, 'Result: 1 failed', false),
  step('read_file', { path: 'cart.py' }),
  step('start_debugger', { test_file: 'test_cart.py', test_name: 'test_total' }, 'Stopped before the test body at test_cart.py:4 in test_total'),
  step('add_breakpoint', { file: 'cart.py', line: 3 }, 'Set breakpoint at cart.py:3 in order_total.'),
  step('continue_execution', {}, 'Stopped at breakpoint cart.py:3 (cart.py:3 in order_total)\n->    3     total = price * qty'),
];
const AFTER: FilterStep[] = [EDIT, step('run_tests', {}, 'Result: 3 passed'), step('done', { summary: 'fixed' })];
const trace = (...reads: FilterStep[]) => [...BEFORE, ...reads, ...AFTER];

describe('changedNames: the values an edit changes', () => {
  it('takes the names on the old lines that differ, not the context lines around them', () => {
    expect(changedLines(EDIT.arguments.old_text as string, EDIT.arguments.new_text as string)).toEqual(['    total = price * qty']);
    expect(changedNames(EDIT.arguments.old_text as string, EDIT.arguments.new_text as string)).toEqual(['total', 'price', 'qty']);
  });

  it('takes the inserted lines of a pure insertion, and leaves out keywords, builtins, calls, strings and comments', () => {
    expect(changedNames('def f(rows):\n    return rows', 'def f(rows):\n    if not rows:  # empty feed\n        raise ValueError("no rows in feed")\n    return rows')).toEqual(['rows']);
    expect(changedNames('    if self.limit > len(items):', '    if self.limit >= len(items):')).toEqual(['self.limit', 'items']);
    expect(changedNames('    raise MoneyError(f"not an amount: {text!r}")', '    raise MoneyError(rb"x")')).toEqual([]);
    // a call is not a value: the function is left out, a method call gives the object it acts on
    expect(changedNames('    entrants.sort(key=rating_of)\n    return total(entrants)', '    return sorted(entrants, key=rating_of)')).toEqual(['entrants', 'key', 'rating_of']);
  });
});

describe('pausedFile: where the debugger stands', () => {
  it('follows stop headlines, keeps its place on reads, moves to the test on a restart after an edit, and clears on the end', () => {
    let at: string | null = null;
    const walk = (s: FilterStep) => (at = pausedFile(at, s));
    expect(walk(BEFORE[2]!)).toBe('test_cart.py');
    expect(walk(BEFORE[4]!)).toBe('cart.py');
    expect(walk(step('print_variable', { expression: 'qty' }, 'qty = 2'))).toBe('cart.py');
    expect(walk(step('step_over', {}, 'Stopped at ./cart.py:4 in order_total'))).toBe('cart.py');
    expect(walk(step('edit_file', EDIT.arguments, 'Edited cart.py\n\nThe debugger was restarted on the edited code:\nStopped before the test body at test_cart.py:4 in test_total'))).toBe('test_cart.py');
    expect(walk(step('continue_execution', {}, 'The program finished. 1 passed (pytest exit status 0).'))).toBeNull();
    expect(walk(step('bash', { command: 'echo Stopped at cart.py:3' }, 'Stopped at cart.py:3'))).toBeNull();
  });
});

describe('readCovers', () => {
  it('covers a name by its root in a printed expression, and through the locals examine_locals lists', () => {
    expect(readCovers(step('print_variable', { expression: 'qty' }), 'qty')).toBe(true);
    expect(readCovers(step('print_variable', { expression: 'len(order.items)' }), 'order.total')).toBe(true);
    expect(readCovers(step('print_variable', { expression: '"qty"' }), 'qty')).toBe(false);
    expect(readCovers(step('examine_locals', {}, 'price = 5\nqty = 2'), 'qty')).toBe(true);
    expect(readCovers(step('examine_locals', {}, 'price = 5\nquantity = 2'), 'qty')).toBe(false);
  });

  it('needs the attribute itself for self.attr: every method has self among its locals', () => {
    expect(readCovers(step('print_variable', { expression: 'self.limit' }), 'self.limit')).toBe(true);
    expect(readCovers(step('print_variable', { expression: 'self.items' }), 'self.limit')).toBe(false);
    expect(readCovers(step('examine_locals', {}, 'self = Cart(limit=3, items=[])'), 'self.limit')).toBe(true);
    expect(readCovers(step('examine_locals', {}, 'self = <cart.Cart object at 0x7f>'), 'self.limit')).toBe(false);
  });
});

describe('uninformed_debugger_use', () => {
  it('keeps a trajectory that printed a changed value while paused at the bug site', () => {
    expect(reason(trace(step('print_variable', { expression: 'qty' }, 'qty = 2')))).toBeNull();
    expect(reason(trace(step('examine_locals', {}, 'price = 5\nqty = 2')))).toBeNull();
  });

  it('rejects one that inspected only values the edit does not change', () => {
    const steps = trace(step('examine_locals', {}, 'order = Order(id=7)\ncoupon = None'), step('print_variable', { expression: 'coupon' }, 'coupon = None'));
    expect(uninformedDebuggerUse(steps, cfg)).toEqual({ reason: 'uninformed_debugger_use', turn: 8, detail: 'no value read at the bug site before an edit; cart.py changes total, price, qty' });
    expect(rejections(steps, cfg).map((r) => r.reason)).toEqual(['uninformed_debugger_use']);
  });

  it('rejects a changed value read away from the bug site, or only after the edit', () => {
    // paused in the test, not in cart.py: the test's own `qty` is not the value at the bug site
    const inTest = [...BEFORE.slice(0, 3), step('print_variable', { expression: 'qty' }, 'qty = 2'), ...AFTER];
    expect(reason(inTest)).toBe('uninformed_debugger_use');
    const late = [...BEFORE, step('print_variable', { expression: 'coupon' }, 'coupon = None'), EDIT, step('print_variable', { expression: 'qty' }, 'qty = 2'), ...AFTER.slice(1)];
    expect(reason(late)).toBe('uninformed_debugger_use');
    // a read that failed observed nothing
    expect(reason(trace(step('print_variable', { expression: 'coupon' }, 'coupon = None'), step('print_variable', { expression: 'qty' }, "NameError: name 'qty' is not defined", false)))).toBe('uninformed_debugger_use');
  });

  it('leaves trajectories that observed no value, or edited nothing, to the other filters', () => {
    expect(reason([BEFORE[0]!, BEFORE[1]!, ...AFTER])).toBeNull();
    expect(reason([...BEFORE, step('where_am_i', {}, 'Stopped at cart.py:3 in order_total'), ...AFTER])).toBeNull();
    expect(reason([...BEFORE, step('print_variable', { expression: 'coupon' }, 'coupon = None'), ...AFTER.slice(1)])).toBeNull();
  });

  it('is switched off by informedDebuggerUse: false, and is a reason the corpus report counts', () => {
    const steps = trace(step('print_variable', { expression: 'coupon' }, 'coupon = None'));
    expect(reason(steps, { informedDebuggerUse: false })).toBeNull();
    expect(REJECTION_REASONS).toContain('uninformed_debugger_use');
    expect(selectTrajectories([], cfg, 1).byReason).toHaveProperty('uninformed_debugger_use', 0);
  });
});
