/** A writable stream that collects text: what a command printed, for assertions. */
export class Output {
  text = '';
  write(chunk: string | Uint8Array): boolean {
    this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  }
  get lines(): string[] {
    return this.text.split('\n').filter((l) => l !== '');
  }
  asStream(): NodeJS.WritableStream {
    return this as unknown as NodeJS.WritableStream;
  }
}
