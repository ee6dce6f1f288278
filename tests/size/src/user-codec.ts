// The benchmark's user object, declared and decoded in a browser: @lib/codec + @lib/validate.
import * as codec from '@lib/codec';
import * as validate from '@lib/validate';

const address = codec.object({
  street: codec.string().refine(validate.minLength(1)),
  city: codec.string().refine(validate.minLength(1)),
  zip: codec.string(),
  country: codec.string().refine(validate.minLength(2), validate.maxLength(2)),
});
const user = codec.object({
  id: codec.string().refine(validate.uuid),
  name: codec.string().refine(validate.minLength(1), validate.maxLength(100)),
  email: codec.string().refine(validate.email),
  age: codec.int().refine(validate.min(0)),
  tags: codec.array(codec.string()),
  address,
  createdAt: codec.string().refine(validate.dateTime),
});

export function readUser(json: unknown): codec.Infer<typeof user> {
  return user.decode(json);
}
