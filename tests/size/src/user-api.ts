// The user object of the size comparison, as @lib declares it: the same fields and checks as
// the valibot schema in peers/orpc-user-api.ts.
import * as codec from '@lib/codec';
import * as validate from '@lib/validate';

export const address = codec.object({
  street: codec.string().refine(validate.minLength(1)),
  city: codec.string().refine(validate.minLength(1)),
  zip: codec.string(),
  country: codec.string().refine(validate.minLength(2), validate.maxLength(2)),
});
export const user = codec.object({
  id: codec.string().refine(validate.uuid),
  name: codec.string().refine(validate.minLength(1), validate.maxLength(100)),
  email: codec.string().refine(validate.email),
  age: codec.int().refine(validate.min(0)),
  tags: codec.array(codec.string()),
  address,
  createdAt: codec.string().refine(validate.dateTime),
});
export const userInput = user.omit('id', 'createdAt');
export const userId = codec.string().refine(validate.uuid);
export type User = codec.Infer<typeof user>;
