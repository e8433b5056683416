/**
 * Navigation of the OpenAPI v3 schemas of the group (openapi-schemas.generated.ts) for the
 * strategic merge patch: which list merges by which key, with which strategy. The patch metadata
 * is exactly the upstream `x-kubernetes-patch-merge-key` / `x-kubernetes-patch-strategy`, so the
 * pod template merges as it does on a Deployment.
 */
import { componentSchemas } from './openapi-schemas.generated.js';

export interface SchemaNode {
  readonly type?: string;
  readonly properties?: Record<string, SchemaNode>;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly items?: SchemaNode;
  readonly allOf?: readonly SchemaNode[];
  readonly $ref?: string;
  readonly 'x-kubernetes-patch-merge-key'?: string;
  readonly 'x-kubernetes-patch-strategy'?: string;
}

/** Patch metadata of one field. */
export interface PatchMeta {
  /** Comma-separated strategies: `merge`, `retainKeys`, `replace`. */
  readonly strategies: readonly string[];
  readonly mergeKey?: string;
}

/** A schema position; `undefined` schema means "unknown here" (no merge keys below). */
export class SchemaCursor {
  constructor(
    private readonly node: SchemaNode | undefined,
    private readonly schemas: Record<string, unknown> = componentSchemas,
  ) {}

  /** Cursor at a named component schema, e.g. `com.github.openshift.api.apps.v1.DeploymentConfig`. */
  static of(name: string, schemas: Record<string, unknown> = componentSchemas): SchemaCursor {
    return new SchemaCursor(schemas[name] as SchemaNode | undefined, schemas);
  }

  private resolve(node: SchemaNode | undefined): SchemaNode | undefined {
    let current = node;
    for (let i = 0; i < 10 && current; i++) {
      const target = current.$ref ?? (current.allOf?.length === 1 ? current.allOf[0]?.$ref : undefined);
      if (!target) return current;
      current = this.schemas[target.split('/').pop() ?? ''] as SchemaNode | undefined;
    }
    return current;
  }

  /** The raw (unresolved) schema of field `key`: it carries the field's patch extensions. */
  private field(key: string): SchemaNode | undefined {
    const node = this.resolve(this.node);
    if (!node) return undefined;
    const prop = node.properties?.[key];
    if (prop) return prop;
    return typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
  }

  /** Cursor for the value of field `key`. */
  child(key: string): SchemaCursor {
    return new SchemaCursor(this.field(key), this.schemas);
  }

  /** Cursor for the elements of this list. */
  elements(): SchemaCursor {
    return new SchemaCursor(this.resolve(this.node)?.items, this.schemas);
  }

  /** Patch metadata of field `key` of this object. */
  patchMeta(key: string): PatchMeta {
    const f = this.field(key);
    const strategy = f?.['x-kubernetes-patch-strategy'];
    return {
      strategies: strategy ? strategy.split(',').map((s) => s.trim()) : [],
      mergeKey: f?.['x-kubernetes-patch-merge-key'],
    };
  }
}

/** The DC's root schema. */
export const deploymentConfigSchema = (): SchemaCursor => SchemaCursor.of('com.github.openshift.api.apps.v1.DeploymentConfig');
