export type Scope = 'sys' | 'user';

export type Expr =
  | { readonly kind: 'literal'; readonly value: string | number | boolean | null }
  | { readonly kind: 'property'; readonly scope: Scope; readonly name: string }
  | { readonly kind: 'newid' }
  | { readonly kind: 'concat'; readonly parts: readonly Expr[] };

export type Predicate =
  | { readonly kind: 'and' | 'or'; readonly left: Predicate; readonly right: Predicate }
  | { readonly kind: 'not'; readonly inner: Predicate }
  | { readonly kind: 'compare'; readonly op: string; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'in'; readonly negated: boolean; readonly value: Expr; readonly list: readonly Expr[] }
  | { readonly kind: 'isNull'; readonly negated: boolean; readonly value: Expr }
  | { readonly kind: 'like'; readonly negated: boolean; readonly value: Expr; readonly pattern: string }
  | { readonly kind: 'exists'; readonly property: Expr }
  | { readonly kind: 'constant'; readonly value: boolean };

export type ActionStatement =
  | { readonly kind: 'set'; readonly target: Expr & { kind: 'property' }; readonly value: Expr }
  | { readonly kind: 'remove'; readonly target: Expr & { kind: 'property' } };
