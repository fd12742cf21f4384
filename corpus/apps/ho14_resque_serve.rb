# Serve the corpus's resque-web: resque's own Sinatra app (Resque::Server, lib/resque/server.rb and its
# ERB views) from the checkout, over a private redis the seed filled (ho14_resque_redis.rb), with WEBrick
# on loopback. Usage: ruby ho14_resque_serve.rb ROOT PORT
root = File.expand_path(ARGV[0])
port = Integer(ARGV[1])
require_relative 'ho14_resque_redis'
pid, sock = CorpusRedis.start(root, load_seed: true)
at_exit { Process.kill('TERM', pid) rescue nil }

$LOAD_PATH.unshift File.join(root, 'lib')
require 'resque/server'
require 'rack'
require 'rack/handler/webrick'
Resque.redis = Redis.new(path: sock)

Rack::Handler::WEBrick.run(Resque::Server.new, Host: '127.0.0.1', Port: port,
                           AccessLog: [], Logger: WEBrick::Log.new($stderr, WEBrick::Log::WARN))
