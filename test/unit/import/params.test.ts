import { describe, it, expect } from '@jest/globals';
import { ParamError, parseParamArgs, parseParamFile } from '../../../src/import/params.js';

describe('parseParamArgs', () => {
  it('reads NAME=value items, and a name given twice is an error', () => {
    expect([...parseParamArgs(['A=1', 'B=x=y'])]).toEqual([['A', '1'], ['B', 'x=y']]);
    expect(() => parseParamArgs(['A=1', 'A=2'])).toThrow('--param: parameter A is given more than once');
  });

  it('echoes an item without =value only when it reads as a name: anything else may be a password given without its name', () => {
    expect(() => parseParamArgs(['DB_PASSWORD'])).toThrow('--param: expected NAME=value, got "DB_PASSWORD" with no =value');
    for (const item of ['=s3cr3t', 'p@ss w0rd!']) {
      const read = () => parseParamArgs([item]);
      expect(read).toThrow('--param: expected NAME=value, got no NAME= before the value (not shown)');
      expect(read).not.toThrow(/s3cr3t|p@ss/);
    }
  });
});

describe('parseParamFile', () => {
  it('reads NAME=value lines, double-quoted values as JSON strings and single-quoted ones literally', () => {
    const file = '# comment\nA=plain\nB="line\\nbreak"\nC=\'$not expanded\'\n\nD=\n';
    expect([...parseParamFile(file, 'p.env')]).toEqual([['A', 'plain'], ['B', 'line\nbreak'], ['C', '$not expanded'], ['D', '']]);
  });

  // A parameter file holds passwords; its errors reach terminals and CI logs.
  it('names the line and the parameter of a malformed quoted value, never the value', () => {
    const read = () => parseParamFile('USER=admin\nDB_PASSWORD="s3cr3t\\q"\n', 'p.env');
    expect(read).toThrow(ParamError);
    expect(read).toThrow('p.env:2: parameter DB_PASSWORD: the double-quoted value is not a valid JSON string (value not shown)');
    expect(read).not.toThrow(/s3cr3t/);
  });
});
