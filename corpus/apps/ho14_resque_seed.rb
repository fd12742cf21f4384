# Seed the corpus's resque-web: a fresh private redis (ho14_resque_redis.rb) filled through resque's own
# API — five queues of pending jobs (55 mailers: three pages of 20; 27 images: two pages), three
# registered workers (one working), 43 failed jobs (three pages of 20) of several classes, four of them
# retried, one whose payload was lost (nil), one whose error message quotes a pasted <script>, and the
# processed/failed statistics — then saved to .corpus-seed.rdb, which the server's redis loads.
# Usage: ruby ho14_resque_seed.rb ROOT
root = File.expand_path(ARGV[0])
require_relative 'ho14_resque_redis'
pid, sock = CorpusRedis.start(root, load_seed: false)
begin
  $LOAD_PATH.unshift File.join(root, 'lib')
  require 'resque'
  require 'resque/failure/redis'
  Resque.redis = Redis.new(path: sock)

  customers = %w[ada grace linus margaret ken dennis barbara edsger alan donald frances john]
  55.times { |i| Resque.push('mailers', 'class' => 'NewsletterMailer', 'args' => [customers[i % 12] + '@example.com', 'issue-' + (i / 12 + 1).to_s]) }
  27.times { |i| Resque.push('images', 'class' => 'ResizeImage', 'args' => ["uploads/photo-#{1000 + i}.jpg", { 'width' => 320 + 40 * (i % 5) }]) }
  8.times { |i| Resque.push('reports', 'class' => 'MonthlyReport', 'args' => [2025, i + 1]) }
  3.times { |i| Resque.push('default', 'class' => 'CacheWarmer', 'args' => ["/products?page=#{i + 1}"]) }
  Resque.watch_queue('low')

  workers = [['web-1', 4101, %w[mailers default]], ['web-2', 4102, %w[images]], ['jobs-1', 5201, %w[reports low]]]
  workers = workers.map do |host, wpid, queues|
    w = Resque::Worker.new(*queues)
    w.instance_variable_set(:@hostname, host)
    w.instance_variable_set(:@pid, wpid)
    w.instance_variable_set(:@to_s, nil)
    w.register_worker
    w
  end
  workers[1].working_on(Resque::Job.new('images', 'class' => 'ResizeImage', 'args' => ['uploads/photo-0999.jpg', { 'width' => 640 }]))

  errors = [
    ['Net::ReadTimeout', 'Net::ReadTimeout with #<TCPSocket:(closed)>', 'NewsletterMailer', 'mailers'],
    ['ActiveRecord::RecordNotFound', "Couldn't find Report with 'id'=%d", 'MonthlyReport', 'reports'],
    ['MiniMagick::Error', '`convert uploads/photo-%d.jpg` failed with error: improper image header', 'ResizeImage', 'images'],
    ['Redis::TimeoutError', 'Connection timed out', 'CacheWarmer', 'default'],
  ]
  43.times do |i|
    klass, message, job_class, queue = errors[i % errors.size]
    message = format(message, 400 + i) if message.include?('%d')
    if i == 3
      klass, job_class, queue = 'Faraday::ServerError', 'WebhookDelivery', 'default'
      message = 'the server responded with status 502: <script>alert("resque-web")</script>'
    end
    exception = RuntimeError.new(message)
    exception.define_singleton_method(:class) { Struct.new(:to_s).new(klass) } # the original error's name
    exception.set_backtrace(["app/jobs/#{job_class.gsub(/([a-z])([A-Z])/, '\1_\2').downcase}.rb:#{10 + i}:in `perform'",
                             "lib/resque/job.rb:165:in `perform'"])
    payload = i == 24 ? nil : { 'class' => job_class, 'args' => [i + 1, "batch-#{i / 10}"] }
    Resque::Failure::Redis.new(exception, workers[i % 3], queue, payload).save
  end
  [5, 6, 9, 30].each { |i| Resque::Failure.requeue(i) }

  Resque::Stat.incr(:processed, 1287)
  Resque::Stat.incr(:failed, 43 + 31) # 31 failures cleared before
  Redis.new(path: sock).save
ensure
  Process.kill('TERM', pid)
  Process.wait(pid)
end
