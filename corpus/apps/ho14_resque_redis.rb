# Start a private redis-server for the corpus's resque-web on a Unix socket in the checkout (no TCP port),
# shared by the seed script and the server script. The seed saves its data to .corpus-seed.rdb; the server's
# redis loads that file at start and never writes it back (--save ""), so every start sees the fresh seed.
require 'fileutils'

module CorpusRedis
  def self.start(root, load_seed:)
    sock = File.join(root, '.corpus-redis.sock')
    FileUtils.rm_f(sock)
    args = ['redis-server', '--port', '0', '--unixsocket', sock, '--unixsocketperm', '700',
            '--dir', root, '--dbfilename', '.corpus-seed.rdb', '--save', '', '--appendonly', 'no',
            '--daemonize', 'no', '--logfile', '']
    FileUtils.rm_f(File.join(root, '.corpus-seed.rdb')) unless load_seed
    pid = spawn(*args, out: File::NULL, err: File::NULL)
    200.times do
      break if File.socket?(sock)
      sleep 0.05
    end
    raise 'redis-server did not start' unless File.socket?(sock)
    [pid, sock]
  end
end
