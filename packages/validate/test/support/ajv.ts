export { compile } from '@lib/oracle';
