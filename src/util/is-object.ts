/** A JSON object: not null, not an array. For reading JSON whose shape nobody promised. */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
