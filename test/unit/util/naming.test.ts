import { describe, it, expect } from '@jest/globals';
import { rcLabelValue } from '../../../src/util/naming.js';

describe('rcLabelValue', () => {
  it('keeps RC names that fit a label value byte for byte (OpenShift\'s contract)', () => {
    expect(rcLabelValue('frontend-1')).toBe('frontend-1');
    const n63 = `${'a'.repeat(61)}-9`;
    expect(rcLabelValue(n63)).toBe(n63);
  });

  it('shortens longer ones to a valid 63-character value, distinct per version', () => {
    const dc = 'inventory-reconciliation-service-for-warehouse-management-eu-01';
    const values = [1, 2, 10, 11, 12345].map((v) => rcLabelValue(`${dc}-${v}`));
    for (const v of values) {
      expect(v).toHaveLength(63);
      expect(v).toMatch(/^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$/);
      expect(v.startsWith(dc.slice(0, 54))).toBe(true);
    }
    expect(new Set(values).size).toBe(values.length);
    // Deterministic: every component (controller, deployer, CLI) computes the same value.
    expect(rcLabelValue(`${dc}-1`)).toBe(values[0]);
  });

  it('never ends the prefix in a separator', () => {
    const v = rcLabelValue(`${'a'.repeat(53)}-${'b'.repeat(20)}-1`);
    expect(v).toMatch(/^a{53}-[0-9a-f]{8}$/);
  });
});
