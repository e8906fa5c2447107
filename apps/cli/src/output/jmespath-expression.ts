import { compile, TreeInterpreter, type JSONValue } from '@jmespath-community/jmespath';
import { CliError } from '../cli-error';

/** A `--jmespath` expression, compiled once: a syntax error is a usage error before any request. */
export class JmesPathExpression {
  private constructor(
    readonly source: string,
    private readonly ast: ReturnType<typeof compile>,
  ) {}

  static compile(source: string): JmesPathExpression {
    try {
      return new JmesPathExpression(source, compile(source));
    } catch (error) {
      throw CliError.usage(`--jmespath ${JSON.stringify(source)}: ${(error as Error).message}`);
    }
  }

  evaluate(data: unknown): unknown {
    try {
      return TreeInterpreter.search(this.ast, data as JSONValue);
    } catch (error) {
      throw CliError.usage(`--jmespath ${JSON.stringify(this.source)}: ${(error as Error).message}`);
    }
  }

  /**
   * As a `wait` condition: met when the result is anything but false or null (a comparison that is
   * true, or a field that is present), so `resource_uuid` waits for the order's backend object.
   */
  isMet(data: unknown): boolean {
    const result = this.evaluate(data);
    return result !== false && result !== null && result !== undefined;
  }
}
