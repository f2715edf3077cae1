/**
 * GraphQL input types generated from the zod schemas the commands validate with (see
 * commands/input-types.ts): a field is non-null when its schema is neither optional, nullable nor
 * defaulted; lists hold non-null items; objects, enums and scalars take the name they were given.
 */
import type { z } from 'zod';
import { typeNameOf } from '../../commands/input-types.ts';

interface Def {
  type: string;
  format?: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Collects `input` definitions while typing fields; one definition per named object. */
export class InputSdl {
  private readonly definitions = new Map<string, string>();

  /** The SDL type of a field (with `!` when required); nested named objects are defined on the way. */
  fieldType(schema: z.ZodType, where: string): string {
    const { type, required } = this.unwrap(schema, where);
    return required ? `${type}!` : type;
  }

  private unwrap(schema: z.ZodType, where: string): { type: string; required: boolean } {
    const def = defOf(schema);
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') return { type: this.unwrap(def.innerType!, where).type, required: false };
    // A named pipe (a parsed scalar such as DateTime) is its name; an unnamed one is what it reads.
    if (def.type === 'pipe') return typeNameOf(schema) ? { type: typeNameOf(schema)!, required: true } : this.unwrap(def.in!, where);
    return { type: this.named(schema, def, where), required: true };
  }

  private named(schema: z.ZodType, def: Def, where: string): string {
    const name = typeNameOf(schema);
    if (def.type === 'object') {
      if (!name) throw new Error(`${where}: an input object needs a name (commands/input-types.ts named())`);
      this.define(name, schema);
      return name;
    }
    if (name) return name;
    if (def.type === 'string') return def.format === 'uuid' ? 'UUID' : 'String';
    if (def.type === 'boolean') return 'Boolean';
    if (def.type === 'number') return def.format === 'safeint' ? 'Int' : 'Float';
    if (def.type === 'array') return `[${this.fieldType(def.element!, `${where}[]`)}]`;
    throw new Error(`${where}: no GraphQL type for a zod ${def.type} without a name`);
  }

  /** Defines the named input object `name` from an object schema (idempotent). */
  define(name: string, schema: z.ZodType): string {
    if (this.definitions.has(name)) return name;
    this.definitions.set(name, ''); // reserve first: recursive types terminate
    const shape = defOf(schema).shape ?? {};
    const fields = Object.entries(shape).map(([field, s]) => `  ${field}: ${this.fieldType(s, `${name}.${field}`)}`);
    this.definitions.set(name, `input ${name} {\n${fields.join('\n')}\n}`);
    return name;
  }

  sdl(): string {
    return [...this.definitions.values()].join('\n');
  }
}
