import { CliError } from '../cli-error';
import { EXIT } from '../exit-codes';
import { JmesPathExpression } from './jmespath-expression';
import { render } from './render';

describe('JMESPath conditions and output', () => {
  it('meets a comparison only when it is true', () => {
    const condition = JmesPathExpression.compile("state=='done'");
    expect(condition.isMet({ state: 'done' })).toBe(true);
    expect(condition.isMet({ state: 'executing' })).toBe(false);
  });

  it('meets a presence check on anything but false or null', () => {
    const condition = JmesPathExpression.compile('resource_uuid');
    expect(condition.isMet({ resource_uuid: 'vm-uuid' })).toBe(true);
    expect(condition.isMet({ resource_uuid: null })).toBe(false);
    expect(condition.isMet({})).toBe(false);
    // Unlike JMESPath's own truthiness, an empty string or list counts as present.
    expect(condition.isMet({ resource_uuid: '' })).toBe(true);
    expect(JmesPathExpression.compile('limits.cpu').isMet({ limits: { cpu: 0 } })).toBe(true);
  });

  it('refuses a syntax error as a usage error before anything is sent', () => {
    const attempt = () => JmesPathExpression.compile('state==');
    expect(attempt).toThrow(CliError);
    try {
      attempt();
    } catch (error) {
      expect((error as CliError).exitCode).toBe(EXIT.usage);
    }
  });

  it('reshapes output, printing a bare string without quotes for shell variables', () => {
    const order = { uuid: 'o-1', state: 'done' };
    expect(render(order, { format: 'json', jmespath: JmesPathExpression.compile('uuid') })).toBe('o-1\n');
    expect(
      JSON.parse(render([order], { format: 'json', jmespath: JmesPathExpression.compile('[].{id: uuid}') })),
    ).toEqual([{ id: 'o-1' }]);
    expect(render(order, { format: 'yaml' })).toBe('uuid: o-1\nstate: done\n');
    expect(render([order], { format: 'table', columns: ['uuid'] })).toMatch(/uuid[\s\S]*o-1/);
  });
});
